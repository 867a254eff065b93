package mutex

import (
	"cmp"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/mutex/central"
	"ringlab/mutex/kit"
	"ringlab/mutex/lamport"
	"ringlab/mutex/maekawa"
	"ringlab/mutex/quorum"
	"ringlab/mutex/ricart"
	"ringlab/mutex/tokenring"
)

// algorithm is one mutual-exclusion algorithm as the area describes it:
// what its run and its exhaustive check are made from (Algorithms), and
// what compare measures.
type algorithm struct {
	name, usage, description, example string
	checkExample                      string // the exhaustive check's example, with what it shows
	nodes, minNodes                   int    // --nodes: its default and least value
	nodesUsage                        string
	params                            []engine.Param // the algorithm's own, beside the workload's
	// clock says its nodes keep a Lamport clock (they implement clocked):
	// its exhaustive check takes --max-clock.
	clock bool
	// plan builds the algorithm for --nodes n and --requests per node,
	// from its own params (given or default); a bad value is a usage
	// error naming its flag.
	plan func(p engine.Params, n, requests int) (plan, error)
	// compare builds it with n processes asking for the critical
	// section; nil: plan with n nodes and the default params.
	compare func(n, requests int) (plan, error)
}

// list is the mutual-exclusion algorithms in the order of mutex/README.md:
// adding one is its package plus one entry here.
func list() []algorithm {
	nodes := "nodes, all asking for the critical section (1..1024)"
	return []algorithm{{
		name:  "central",
		usage: "central coordinator: RequestAccess, ResponseOK, RequestFree, ResponseFree",
		description: "Node 1 is the coordinator; nodes 2..N ask it for the critical section. Four messages per\n" +
			"entry. --grant-timeout is the chapter's 'solution' to a holder that never releases: the\n" +
			"coordinator takes the permission back after that many ticks (named so that it does not\n" +
			"clash with the engine's --timeout, the live runtime's wall-clock budget).",
		example:      "ringlab mutex central --nodes 4 --requests 2 --seed 1",
		checkExample: "ringlab mutex check central --nodes 3 --grant-timeout 10   (a slow holder: two in the CS)",
		nodes:        5, minNodes: 2, nodesUsage: "nodes including the coordinator, node 1 (2..1024)",
		params: []engine.Param{ticksParam("grant-timeout", "ticks after a grant before the coordinator takes the permission back (0 = never)"),
			{Name: "favour", Default: 0, Usage: "a bias, not the chapter's: the coordinator serves participants 2..F before the others, whatever the order of arrival (0 = first come, first served); with two favoured, the others starve"}},
		plan: func(p engine.Params, n, _ int) (plan, error) {
			t, err := ticks(p, "grant-timeout")
			if err != nil {
				return plan{}, err
			}
			f := p.Int("favour")
			if f < 0 || f > n {
				return plan{}, cliutil.Usagef("--favour must be between 0 (none) and --nodes %d, got %d", n, f)
			}
			return centralPlan(central.Config{N: n, Timeout: t, Favour: f})
		},
		compare: func(n, _ int) (plan, error) { return centralPlan(central.Config{N: n + 1}) },
	}, {
		name:  "token-ring",
		usage: "token ring: the token circulates; 1 to N messages per entry",
		description: "Node 1 starts with the token; a node that wants the critical section keeps the token\n" +
			"while inside. A crashed holder loses it; --regen-timeout lets a node that has waited that\n" +
			"long create a new one (right if the holder is dead, two tokens if it was only slow).",
		example:      "ringlab mutex token-ring --nodes 5 --seed 1 --format none",
		checkExample: "ringlab mutex check token-ring --nodes 3 --regen-timeout 5   (a regenerated token: two tokens at once)",
		nodes:        5, minNodes: 2, nodesUsage: "nodes on the ring (2..1024)",
		params: []engine.Param{ticksParam("regen-timeout", "ticks a waiting node goes without the token before creating one (0 = never)")},
		plan: func(p engine.Params, n, requests int) (plan, error) {
			t, err := ticks(p, "regen-timeout")
			if err != nil {
				return plan{}, err
			}
			var reqs []int // --requests 0 (a check without end): the token circulates for ever
			if requests > 0 {
				reqs = each(n, requests)
			}
			return tokenPlan(tokenring.Config{N: n, RegenTimeout: t, Requests: reqs})
		},
	}, {
		name:  "quorum",
		usage: "quorum of coordinators: m of n OKs per entry, request ids",
		description: "Nodes 1..n are coordinators, the next --nodes nodes participants. A participant needs\n" +
			"ResponseOK from m > n/2 coordinators. A coordinator restarted with --restart forgets its\n" +
			"votes (amnesia); --retry-timeout breaks split votes (give up, back off, ask again).",
		example:      "ringlab mutex quorum --coordinators 3 --nodes 3 --retry-timeout 40 --seed 1 --format none",
		checkExample: "ringlab mutex check quorum --coordinators 3 --nodes 2 --crashes 1 --restarts 1 --property mutual-exclusion   (amnesia)",
		nodes:        3, minNodes: 1, nodesUsage: "participants, nodes n+1.. (1..1024)",
		params: []engine.Param{
			{Name: "coordinators", Default: 3, Usage: "n, the coordinators: nodes 1..n (1..1024)"},
			{Name: "quorum", Default: 0, DefaultText: "n/2+1", Usage: "m, the OKs a participant needs: n/2 < m <= n"},
			ticksParam("retry-timeout", "ticks without a quorum before releasing the votes and retrying after a backoff (0 = never)"),
		},
		plan: func(p engine.Params, n, _ int) (plan, error) {
			c, m := p.Int("coordinators"), p.Int("quorum")
			if c < 1 || c > maxNodes {
				return plan{}, cliutil.Usagef("--coordinators must be between 1 and %d, got %d", maxNodes, c)
			}
			if !p.Given("quorum") {
				m = c/2 + 1
			} else if err := quorum.CheckQuorum(c, m); err != nil {
				return plan{}, cliutil.Usagef("--quorum: %v", err)
			}
			t, err := ticks(p, "retry-timeout")
			if err != nil {
				return plan{}, err
			}
			return quorumPlan(quorum.Config{Coordinators: c, Participants: n, M: m, RetryTimeout: t})
		},
		compare: func(n, _ int) (plan, error) {
			return quorumPlan(quorum.Config{Coordinators: n, Participants: n, M: n/2 + 1})
		},
	}, {
		name:  "ricart-agrawala",
		usage: "Ricart-Agrawala (1981): Lamport clocks, 2(N-1) messages per entry",
		description: "Request(T, id) to all others, enter on N-1 replies; a node HELD, or WANTED with the\n" +
			"earlier (T, id), defers. The course variant's options: --release-broadcast (3(N-1) per entry) and\n" +
			"--reply-timeout T, a peer silent for T ticks counts as a reply (unsafe when it is only slow).",
		example:      "ringlab mutex ricart-agrawala --nodes 5 --seed 1 --format none",
		checkExample: "ringlab mutex check ricart-agrawala --nodes 3 --policy random",
		nodes:        5, minNodes: 1, nodesUsage: nodes, clock: true,
		params: []engine.Param{
			{Name: "release-broadcast", Default: false, Usage: "the course variant: also send RELEASE to every other node on exit"},
			ticksParam("reply-timeout", "the course variant: count a peer silent for this many ticks as a reply (0 = off; unsafe)"),
		},
		plan: func(p engine.Params, n, _ int) (plan, error) {
			t, err := ticks(p, "reply-timeout")
			if err != nil {
				return plan{}, err
			}
			return ricartPlan(ricart.Config{N: n, ReleaseBroadcast: p.Bool("release-broadcast"), TimeoutAsReply: t > 0, Timeout: t})
		},
	}, {
		name:  "lamport",
		usage: "Lamport's mutual exclusion (1978): sorted request queue, ACQUIRE/ACK/RELEASE, 3(N-1)",
		description: "Needs FIFO links: with --policy random an ACK may overtake an ACQUIRE and two nodes enter\n" +
			"(see 'ringlab mutex scenario lamport-nonfifo').",
		example:      "ringlab mutex lamport --nodes 5 --seed 1 --format none",
		checkExample: "ringlab mutex check lamport --nodes 3 --clock requests --requests 0 --max-clock 6   (TLC's model and clock bound, about 2 s)",
		nodes:        5, minNodes: 1, nodesUsage: nodes, clock: true,
		params: []engine.Param{{Name: "clock", Default: "events",
			Usage: "which events move a node's clock: events (the paper: every event, every message stamped) or requests (the TLA+ specification: only a received ACQUIRE)"}},
		plan: func(p engine.Params, n, _ int) (plan, error) {
			rule, err := lamport.ParseClockRule(p.String("clock"))
			if err != nil {
				return plan{}, cliutil.Usagef("--clock: %v", err)
			}
			return lamportPlan(lamport.Config{N: n, Clock: rule})
		},
	}, {
		name:  "maekawa",
		usage: "Maekawa's √N grid quorums with INQUIRE/RELINQUISH/FAILED (no deadlock)",
		description: "Each node asks its grid row and column; an arbiter locks for one request at a time.\n" +
			"About 3√N to 5√N messages per entry. Needs FIFO links.",
		example: "ringlab mutex maekawa --nodes 9 --seed 1 --format none",
		nodes:   9, minNodes: 1, nodesUsage: nodes,
		plan: func(_ engine.Params, n, _ int) (plan, error) { return maekawaPlan(maekawa.Config{N: n}) },
	}}
}

// Algorithms are the mutual-exclusion algorithms as every command takes
// them: each runs under the chapter's workload of requests and is judged
// by the chapter's properties.
func Algorithms() []engine.Algorithm {
	var algs []engine.Algorithm
	for _, a := range list() {
		algs = append(algs, a.algorithm())
	}
	return algs
}

// Bounds of the workload's parameters.
const (
	maxNodes = kit.MaxNodes
	maxTicks = kit.MaxTicks
)

// algorithm is a's engine.Algorithm: the kit's workload and properties
// over a's plan, and a's bounds of an exhaustive check.
func (a algorithm) algorithm() engine.Algorithm {
	s := kit.Spec{
		Name: a.name, Usage: a.usage, Description: a.description, Example: a.example,
		CheckExample: cmp.Or(a.checkExample, "ringlab mutex check "+a.name+" --nodes 3"),
		Title:        "mutex " + a.name, Nodes: a.nodes, MinNodes: a.minNodes, NodesUsage: a.nodesUsage,
		Params: a.params,
		Plan: func(p engine.Params, n, requests int) (kit.Plan, error) {
			pl, err := a.plan(p, n, requests)
			return pl.kit(), err
		},
		EndlessNote: "under --policy fifo the checker makes clocks and request numbers finite by exact reductions (Lamport with --clock events, Ricart-Agrawala, Maekawa, the quorum's request numbers), which leaves some spaces finite: those of central, token-ring, ricart-agrawala and lamport at N = 3; the others need --max-depth (or --max-clock, where offered)",
		Bound:       a.bound,
	}
	if a.clock {
		s.CheckParams = []engine.Param{{Name: "max-clock", Default: 0, Usage: "a state constraint, as TLC's: states where a node's Lamport clock passes this are counted but not expanded (0: none); with states left beyond it the check proves nothing (exit 4)"}}
	}
	return s.Algorithm()
}

// ticksParam is a parameter of ticks where 0 means "off".
func ticksParam(name, usage string) engine.Param {
	return engine.Param{Name: name, Default: int64(0), Usage: usage}
}

// ticks reads a parameter of ticks where 0 means "off".
func ticks(p engine.Params, name string) (int64, error) {
	v := p.Int64(name)
	if v < 0 || v > maxTicks {
		return 0, cliutil.Usagef("--%s must be between 0 (off) and %d ticks, got %d", name, maxTicks, v)
	}
	return v, nil
}

// each is requests for each of n nodes.
func each(n, requests int) []int {
	reqs := make([]int, n)
	for k := range reqs {
		reqs[k] = requests
	}
	return reqs
}
