package mutex

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/mutex/lamport"
	"ringlab/mutex/quorum"
)

// algo is one algorithm subcommand.
type algo struct {
	name, usage, description, example string
	defNodes, minNodes                int
	nodesUsage                        string
	flags                             func() []cli.Flag // the algorithm's own flags, fresh per command
	read                              func(c *cli.Context, p *params) error
}

func noFlags() []cli.Flag { return nil }

// algos lists the algorithms in the order of mutex/README.md.
func algos() []algo {
	nodes := "nodes, all asking for the critical section (1..1024)"
	return []algo{{
		name:  algoCentral,
		usage: "central coordinator: RequestAccess, ResponseOK, RequestFree, ResponseFree",
		description: "Node 1 is the coordinator; nodes 2..N ask it for the critical section. Four messages per\n" +
			"entry. --grant-timeout is the chapter's 'solution' to a holder that never releases: the\n" +
			"coordinator takes the permission back after that many ticks (named so that it does not\n" +
			"clash with the engine's --timeout, the live runtime's wall-clock budget).",
		example:  "ringlab mutex central --nodes 4 --requests 2 --seed 1",
		defNodes: 5, minNodes: 2, nodesUsage: "nodes including the coordinator, node 1 (2..1024)",
		flags: func() []cli.Flag {
			return []cli.Flag{&cli.Int64Flag{Name: "grant-timeout", Usage: "ticks after a grant before the coordinator takes the permission back (0 = never)"}}
		},
		read: func(c *cli.Context, p *params) (err error) {
			p.grantTimeout, err = ticks(c, "grant-timeout")
			return err
		},
	}, {
		name:  algoToken,
		usage: "token ring: the token circulates; 1 to N messages per entry",
		description: "Node 1 starts with the token; a node that wants the critical section keeps the token\n" +
			"while inside. A crashed holder loses it; --regen-timeout lets a node that has waited that\n" +
			"long create a new one (right if the holder is dead, two tokens if it was only slow).",
		example:  "ringlab mutex token-ring --nodes 5 --seed 1 --format none",
		defNodes: 5, minNodes: 2, nodesUsage: "nodes on the ring (2..1024)",
		flags: func() []cli.Flag {
			return []cli.Flag{&cli.Int64Flag{Name: "regen-timeout", Usage: "ticks a waiting node goes without the token before creating one (0 = never)"}}
		},
		read: func(c *cli.Context, p *params) (err error) {
			p.regenTimeout, err = ticks(c, "regen-timeout")
			return err
		},
	}, {
		name:  algoQuorum,
		usage: "quorum of coordinators: m of n OKs per entry, request ids",
		description: "Nodes 1..n are coordinators, the next --nodes nodes participants. A participant needs\n" +
			"ResponseOK from m > n/2 coordinators. A coordinator restarted with --restart forgets its\n" +
			"votes (amnesia); --retry-timeout breaks split votes (give up, back off, ask again).",
		example:  "ringlab mutex quorum --coordinators 3 --nodes 3 --retry-timeout 40 --seed 1 --format none",
		defNodes: 3, minNodes: 1, nodesUsage: "participants, nodes n+1.. (1..1024)",
		flags: func() []cli.Flag {
			return []cli.Flag{
				&cli.IntFlag{Name: "coordinators", Value: 3, Usage: "n, the coordinators: nodes 1..n (1..1024)"},
				&cli.IntFlag{Name: "quorum", DefaultText: "n/2+1", Usage: "m, the OKs a participant needs: n/2 < m <= n"},
				&cli.Int64Flag{Name: "retry-timeout", Usage: "ticks without a quorum before releasing the votes and retrying after a backoff (0 = never)"},
			}
		},
		read: readQuorum,
	}, {
		name:  algoRicart,
		usage: "Ricart-Agrawala (1981): Lamport clocks, 2(N-1) messages per entry",
		description: "Request(T, id) to all others, enter on N-1 replies; a node HELD, or WANTED with the\n" +
			"earlier (T, id), defers. The course variant's options: --release-broadcast (3(N-1) per entry) and\n" +
			"--reply-timeout T, a peer silent for T ticks counts as a reply (unsafe when it is only slow).",
		example:  "ringlab mutex ricart-agrawala --nodes 5 --seed 1 --format none",
		defNodes: 5, minNodes: 1, nodesUsage: nodes,
		flags: func() []cli.Flag {
			return []cli.Flag{
				&cli.BoolFlag{Name: "release-broadcast", Usage: "the course variant: also send RELEASE to every other node on exit"},
				&cli.Int64Flag{Name: "reply-timeout", Usage: "the course variant: count a peer silent for this many ticks as a reply (0 = off; unsafe)"},
			}
		},
		read: func(c *cli.Context, p *params) (err error) {
			p.broadcast = c.Bool("release-broadcast")
			p.replyTimeout, err = ticks(c, "reply-timeout")
			return err
		},
	}, {
		name:  algoLamport,
		usage: "Lamport's mutual exclusion (1978): sorted request queue, ACQUIRE/ACK/RELEASE, 3(N-1)",
		description: "Needs FIFO links: with --policy random an ACK may overtake an ACQUIRE and two nodes enter\n" +
			"(see 'ringlab mutex scenario lamport-nonfifo').",
		example:  "ringlab mutex lamport --nodes 5 --seed 1 --format none",
		defNodes: 5, minNodes: 1, nodesUsage: nodes,
		flags: func() []cli.Flag {
			return []cli.Flag{&cli.StringFlag{Name: "clock", Value: "events", Usage: "which events move a node's clock: events (the paper: every event, every message stamped) or requests (the TLA+ specification: only a received ACQUIRE)"}}
		},
		read: func(c *cli.Context, p *params) (err error) {
			if p.clock, err = lamport.ParseClockRule(c.String("clock")); err != nil {
				return cliutil.Usagef("--clock: %v", err)
			}
			return nil
		},
	}, {
		name:  algoMaekawa,
		usage: "Maekawa's √N grid quorums with INQUIRE/RELINQUISH/FAILED (no deadlock)",
		description: "Each node asks its grid row and column; an arbiter locks for one request at a time.\n" +
			"About 3√N to 5√N messages per entry. Needs FIFO links.",
		example:  "ringlab mutex maekawa --nodes 9 --seed 1 --format none",
		defNodes: 9, minNodes: 1, nodesUsage: nodes, flags: noFlags,
	}}
}

func readQuorum(c *cli.Context, p *params) (err error) {
	p.coordinators, p.quorum = c.Int("coordinators"), c.Int("quorum")
	if p.coordinators < 1 || p.coordinators > maxNodes {
		return cliutil.Usagef("--coordinators must be between 1 and %d, got %d", maxNodes, p.coordinators)
	}
	if c.IsSet("quorum") {
		if err := quorum.CheckQuorum(p.coordinators, p.quorum); err != nil {
			return cliutil.Usagef("--quorum: %v", err)
		}
	}
	p.retryTimeout, err = ticks(c, "retry-timeout")
	return err
}
