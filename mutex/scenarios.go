package mutex

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/mutex/central"
	"ringlab/mutex/quorum"
	"ringlab/mutex/ricart"
	"ringlab/mutex/tokenring"
)

func req(at int64, i int) node.Action   { return node.Action{At: at, Node: i, Cmd: node.CmdRequest} }
func crash(at int64, i int) node.Action { return node.Action{At: at, Node: i, Cmd: node.CmdCrash} }

// nameList names nodes 1..n by list.
func nameList(names ...string) func(int) string {
	return func(i int) string { return names[i-1] }
}

// centralNames: node 1 is the coordinator, the others P1, P2, ...
func centralNames(i int) string {
	if i == 1 {
		return "coordinator"
	}
	return fmt.Sprintf("P%d", i-1)
}

// quorumNames: C1..Cn, then the participants P1, P2, ...
func quorumNames(n int) func(int) string {
	return func(i int) string {
		if i <= n {
			return fmt.Sprintf("C%d", i)
		}
		return fmt.Sprintf("P%d", i-n)
	}
}

// flagTicks reads a scenario's flag of ticks where 0 means "off".
func flagTicks(c *cli.Context, name string) (int64, error) {
	v := c.Int64(name)
	if v < 0 || v > maxTicks {
		return 0, cliutil.Usagef("--%s must be between 0 (off) and %d ticks, got %d", name, maxTicks, v)
	}
	return v, nil
}

func timeoutFlag(name string, value int64, usage string) func() []cli.Flag {
	return func() []cli.Flag { return []cli.Flag{&cli.Int64Flag{Name: name, Value: value, Usage: usage}} }
}

// scenarios lists the chapter's scenarios in the order of mutex/README.md.
func scenarios() []scenario {
	return []scenario{{
		name: "central-dead", usage: "a participant crashes holding the permission; the coordinator's timeout moves the queue on", want: 0,
		about: "Central coordinator: P1 enters and crashes inside the critical section. After\n" +
			"--grant-timeout 10 ticks the coordinator takes the permission back and serves P2, then\n" +
			"P3. P1 is really dead: no violation.",
		build: func(*cli.Context) (setup, error) {
			return setup{plan: planOf(centralPlan, central.Config{N: 4, Timeout: 10}), cs: 4, names: centralNames,
				script: []node.Action{req(0, 2), req(1, 3), req(1, 4), crash(3, 2)}}, nil
		},
	}, {
		name: "central-slow", usage: "the same timeout when the participant was only slow: two nodes in the CS (exit 3)", want: 3,
		about: "Central coordinator: P1 enters and stays 20 ticks, longer than --grant-timeout 10.\n" +
			"The coordinator cannot tell slow from dead: it takes the permission back and P2 enters\n" +
			"while P1 is still inside. \"In an asynchronous distributed system it is impossible to\n" +
			"tell a failed process from a slow one.\" (The flags' indices: the coordinator is 1, P1..P3 are 2..4.)",
		build: func(*cli.Context) (setup, error) {
			return setup{plan: planOf(centralPlan, central.Config{N: 4, Timeout: 10}), cs: 4, csFor: map[int]int64{2: 20},
				names: centralNames, script: []node.Action{req(0, 2), req(1, 3), req(1, 4)}}, nil
		},
	}, {
		name: "token-lost", usage: "the token holder crashes; a waiting node regenerates the token by timeout", want: 0,
		about: "Token ring: P2 crashes in the critical section with the token. P3\n" +
			"waits; after --regen-timeout ticks without the token it creates one and enters. The token\n" +
			"is lost again at P2 (\"any crashed process breaks the ring\"). With --regen-timeout 0\n" +
			"nobody regenerates: P3 waits forever (exit 4).",
		flags: timeoutFlag("regen-timeout", 10, "ticks a waiting node goes without the token before creating one (0 = never)"),
		build: func(c *cli.Context) (setup, error) {
			rt, err := flagTicks(c, "regen-timeout")
			return setup{plan: planOf(tokenPlan, tokenring.Config{N: 3, RegenTimeout: rt, Requests: []int{0, 1, 1}}), cs: 5,
				script: []node.Action{req(0, 2), req(2, 3), crash(3, 2)}}, err
		},
	}, {
		name: "token-regenerated", usage: "a false regeneration timeout: two tokens, two nodes in the CS (exit 3)", want: 3,
		about: "Token ring: P2 holds the token for 20 ticks; P3, waiting, regenerates\n" +
			"the token after 5 ticks although P2 is only slow: two tokens, two nodes in the CS.",
		build: func(*cli.Context) (setup, error) {
			return setup{plan: planOf(tokenPlan, tokenring.Config{N: 3, RegenTimeout: 5, Requests: []int{0, 1, 1}}), cs: 5,
				csFor: map[int]int64{2: 20}, script: []node.Action{req(0, 2), req(2, 3)}}, nil
		},
	}, {
		name: "quorum-amnesia", usage: "the course chapter's n=3, m=2 amnesia example: both participants in the CS (exit 3)", want: 3,
		about: "Quorum of coordinators: n=3, m=2. P1 gets OK from {C1, C2} (its request to C3 is slow);\n" +
			"C2 crashes and recovers, forgetting its vote; P2 gets OK from {C2, C3}: both are in the\n" +
			"critical section. (The flags' indices: C1..C3 are 1..3, P1 and P2 are 4 and 5.)",
		build: func(*cli.Context) (setup, error) {
			return setup{plan: planOf(quorumPlan, quorum.Config{Coordinators: 3, M: 2, Participants: 2}), cs: 20, names: quorumNames(3),
				slow:   []sim.Slow{{Node: 3, Extra: 10, From: 0, Until: 1}},
				script: []node.Action{req(0, 4), crash(3, 2), {At: 4, Node: 2, Cmd: node.CmdRestart}, req(5, 5)}}, nil
		},
	}, {
		name: "quorum-split", usage: "split votes: nobody reaches m, a deadlock (exit 4); --retry-timeout resolves it", want: 4,
		about: "Quorum of coordinators: n=3, m=2, three participants; slow links make each coordinator see a\n" +
			"different participant first, so each participant has one vote and waits for a second that\n" +
			"never comes. With --retry-timeout T a participant without a quorum after T ticks releases\n" +
			"its vote and asks again after a backoff of k·T (k = its number): the votes come together.\n" +
			"(The flags' indices: C1..C3 are 1..3, P1..P3 are 4..6.)",
		flags: timeoutFlag("retry-timeout", 0, "ticks without a quorum before releasing the votes and retrying (0 = never)"),
		build: func(c *cli.Context) (setup, error) {
			rt, err := flagTicks(c, "retry-timeout")
			return setup{plan: planOf(quorumPlan, quorum.Config{Coordinators: 3, M: 2, Participants: 3, RetryTimeout: rt}), cs: 2,
				names:  quorumNames(3),
				slow:   []sim.Slow{{Node: 2, Extra: 3, From: 0, Until: 1}, {Node: 3, Extra: 5, From: 0, Until: 2}},
				script: []node.Action{req(0, 4), req(1, 5), req(2, 6)}}, err
		},
	}, {
		name: "ra-seed001", usage: "Ricart-Agrawala's worked example: N32 holds; N12 (115) and N80 (110) request; N80 then N12", want: 0,
		about: "Ricart-Agrawala: nodes N3, N5, N6, N12, N32, N80. N32 alone requests and enters. N12\n" +
			"requests with (115, 12), N80 with (110, 80). N3, N5, N6 reply at once; N32 (HELD) queues\n" +
			"both; N80 (WANTED, 110 < 115) queues N12's; N12 replies to N80. N32 exits and replies to\n" +
			"both: N80 enters; N80 exits and replies to N12, which enters. Order: N32, N80, N12.",
		build: func(*cli.Context) (setup, error) {
			ids := []int{3, 5, 6, 12, 32, 80}
			return setup{plan: planOf(ricartPlan, ricart.Config{N: 6, Ids: ids}), cs: 5,
				names:  idNames(ids),
				script: []node.Action{req(0, 5), ricart.RequestAt(3, 4, 115), ricart.RequestAt(3, 6, 110)}}, nil
		},
	}, {
		name: "ra-seed000", usage: "Ricart-Agrawala's A, B, C example: A enters; B requests; A defers, C replies; A exits; B enters", want: 0,
		about: "Ricart-Agrawala: A requests and enters; B requests while A holds; A defers B, C\n" +
			"replies; A exits and replies to B; B enters. This example also broadcasts RELEASE on exit:\n" +
			"3(N-1) = 6 messages per entry.",
		build: func(*cli.Context) (setup, error) {
			return setup{plan: planOf(ricartPlan, ricart.Config{N: 3, ReleaseBroadcast: true, Name: nameList("A", "B", "C")}), cs: 6, names: nameList("A", "B", "C"),
				script: []node.Action{req(0, 1), req(3, 2)}}, nil
		},
	}, {
		name: "ra-timeout-reply", usage: "the course variant's 'a timeout counts as a reply' with a slow peer: two nodes in the CS (exit 3)", want: 3,
		about: "Ricart-Agrawala: a peer that has not replied within 5 ticks is counted as having\n" +
			"replied. A holds the CS for 20 ticks and defers B; B's timeout counts A's reply and B enters\n" +
			"while A is still inside.",
		build: func(*cli.Context) (setup, error) {
			return setup{plan: planOf(ricartPlan, ricart.Config{N: 3, TimeoutAsReply: true, Timeout: 5, Name: nameList("A", "B", "C")}), cs: 4, csFor: map[int]int64{1: 20},
				names: nameList("A", "B", "C"), script: []node.Action{req(0, 1), req(3, 2)}}, nil
		},
	}, {
		name: "lamport-nonfifo", usage: "Lamport's algorithm on non-FIFO links: the explorer finds two nodes in the CS (exit 3)", want: 3,
		about: "Lamport's algorithm needs FIFO channels. Under --policy random an\n" +
			"ACK can overtake its sender's ACQUIRE; the explorer finds such a schedule, shrinks it and\n" +
			"replays it. With --policy fifo it finds none.",
		flags: func() []cli.Flag {
			return []cli.Flag{
				&cli.StringFlag{Name: "policy", Value: "random", Usage: "delivery policy: random (non-FIFO) or fifo"},
				&cli.IntFlag{Name: "schedules", Value: 10_000, Usage: "schedules to try (1..10000000)"},
			}
		},
		explore: func(c *cli.Context) []string {
			args := []string{"ringlab", "mutex", "explore", "lamport", "--nodes", "2", "--requests", "1",
				"--cs-time", "10", "--think-time", "0", "--latency", "1-10", "--policy", c.String("policy"),
				"--property", "mutual-exclusion", "--schedules", fmt.Sprint(c.Int("schedules")), "--seed", "1"}
			if f := c.String("format"); f != "text" {
				args = append(args, "--format", f)
			}
			if o := c.String("out"); o != "" {
				args = append(args, "--out", o)
			}
			return args
		},
	}}
}
