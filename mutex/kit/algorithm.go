package kit

import (
	"fmt"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
)

// Bounds of the workload's parameters.
const (
	MaxNodes         = 1024          // --nodes
	MaxRequests      = 100_000       // --requests of a run
	MaxCheckRequests = 8             // --requests of an exhaustive check
	MaxTicks         = 1_000_000_000 // --cs-time, --think-time
)

// Spec describes a mutual-exclusion algorithm for every command: its
// words, its own parameters, and how to build a Plan from them. The kit
// adds the workload's parameters (--nodes, --requests, --cs-time,
// --think-time; an exhaustive check's --requests 0 for no end) and the
// properties.
type Spec struct {
	// Name, Usage, Description and Example are the command's
	// (engine.Algorithm's): its name, one line, a paragraph, a command line.
	Name, Usage, Description, Example string
	// CheckExample is the exhaustive check's example, with what it shows.
	CheckExample string
	// Title names the System in summaries and logs ("mutex central"; "":
	// Name).
	Title string
	// Nodes and MinNodes are --nodes' default and least value (0: 3 and
	// 1); NodesUsage says what the nodes are.
	Nodes, MinNodes int
	NodesUsage      string
	// Params are the algorithm's own, beside the workload's.
	Params []engine.Param
	// Plan builds the algorithm for n nodes each asking requests times
	// (0: for ever) from its own params; a bad value is a usage error
	// naming its flag (cliutil.Usagef).
	Plan func(p engine.Params, n, requests int) (Plan, error)
	// CheckParams are parameters of the exhaustive check alone, and
	// EndlessNote what it says of --requests 0 beside the kit's words.
	CheckParams []engine.Param
	EndlessNote string
	// Bound, if set, completes or refuses the exhaustive check's System
	// sys, built from pl for requests (0: no end): a state constraint
	// (sys.Within), or a usage error for a space it knows to be infinite.
	Bound func(sys *engine.System, pl Plan, p engine.Params, env engine.Env, requests int) error
}

// Algorithm is a mutual-exclusion algorithm of the given kind whose node i
// of n is newNode(n, i), every node asking for the critical section:
// messages lists one value of every message type the nodes send (for a
// Token algorithm messages[0] is the token, and node 1 is started,
// node.CmdStart at tick 0, to create it). It gets the kit's workload
// (--requests N, 0 for ever in a check), every property of its kind and
// the promises --liveness judges.
//
// The nodes answer node.CmdRequest and node.CmdRelease with EnterCS and
// ExitCS; under the workload a node must not report Done (the run ends
// when nothing is left to happen), and its state is a node.Snapshot for
// the exhaustive checker.
func Algorithm(name string, kind Kind, newNode func(n, i int) node.Node, messages ...node.Msg) engine.Algorithm {
	return Spec{
		Name: name, Usage: "a mutual-exclusion algorithm", NodesUsage: "nodes, all asking for the critical section",
		Plan: func(_ engine.Params, n, _ int) (Plan, error) {
			pl := Plan{Kind: kind, Nodes: n, Messages: messages, Factory: func(i int) (node.Node, error) {
				if i < 1 || i > n {
					return nil, fmt.Errorf("%s: node index must be 1..%d, got %d", name, n, i)
				}
				return newNode(n, i), nil
			}}
			if kind == Token {
				pl.Start = []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}
			}
			return pl, nil
		},
	}.Algorithm()
}

// Algorithm is s as every command takes it: a run under the workload, and
// its exhaustive check.
func (s Spec) Algorithm() engine.Algorithm {
	nodes := s.Nodes
	if nodes == 0 {
		nodes = 3
	}
	ps := []engine.Param{
		{Name: "nodes", Default: nodes, Usage: s.NodesUsage},
		{Name: "requests", Default: 3, Usage: fmt.Sprintf("critical-section entries each node asks for (1..%d)", MaxRequests)},
		{Name: "cs-time", Default: int64(2), Usage: "ticks a node stays in the critical section (>= 0)"},
		{Name: "think-time", Default: int64(5), Usage: "ticks between leaving and asking again; first requests at ticks drawn once from [0, think-time] (>= 0)"},
	}
	return engine.Algorithm{
		Name: s.Name, Usage: s.Usage, Description: s.Description, Example: s.Example, CheckExample: s.CheckExample,
		Params: append(ps, s.Params...),
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			pl, err := s.build(p, 1, "cs-time", "think-time")
			if err != nil {
				return engine.System{}, err
			}
			return pl.System(s.title(), NewWorkload(pl, p.Int("requests"), p.Int64("cs-time"), p.Int64("think-time"))), nil
		},
		Exhaustive: s.exhaustive(nodes),
	}
}

// title is the System's name.
func (s Spec) title() string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}

// exhaustive is s's exhaustive check: a small system (at most 3 nodes by
// default) asking once each, or for ever (--requests 0) under a bound.
func (s Spec) exhaustive(nodes int) *engine.Algorithm {
	endless := "0: no end, a node asks again after every exit"
	if s.EndlessNote != "" {
		endless += "; " + s.EndlessNote
	}
	ps := []engine.Param{
		{Name: "nodes", Default: min(nodes, 3), Usage: s.NodesUsage + "; keep it small: the space grows exponentially"},
		{Name: "requests", Default: 1, Usage: fmt.Sprintf("critical-section entries each node asks for (1..%d; %s)", MaxCheckRequests, endless)},
	}
	ps = append(append(ps, s.CheckParams...), s.Params...)
	return &engine.Algorithm{
		Description: "Breadth-first search over every interleaving the simulator could produce: which message\n" +
			"is delivered next, which pending timer fires (any moment with --timers any), which\n" +
			"request or release comes next, and where --crashes/--restarts/--drops strike. Mutual\n" +
			"exclusion is checked at every step; no deadlock, no starvation and the grant order at\n" +
			"every terminal state. A violation is reported with a shortest path and its --path replay.",
		Params: ps,
		Build: func(p engine.Params, env engine.Env) (engine.System, error) {
			pl, err := s.build(p, 0)
			if err != nil {
				return engine.System{}, err
			}
			if r := p.Int("requests"); r > MaxCheckRequests {
				return engine.System{}, cliutil.Usagef("--requests must be between 0 and %d for an exhaustive check, got %d", MaxCheckRequests, r)
			}
			return s.checkSystem(pl, p, env)
		},
	}
}

// checkSystem is the System the exhaustive checker searches for plan pl:
// each requester's first request, the workload that answers with releases
// and requests (0: for ever), the properties, and Bound's constraint. A
// check without end whose space is known to be infinite is refused
// without a bound.
func (s Spec) checkSystem(pl Plan, p engine.Params, env engine.Env) (engine.System, error) {
	requests := p.Int("requests")
	sys := pl.System(s.title(), CheckWorkload(pl, requests))
	if pl.Theory != "" {
		sys.Theory = "messages per entry " + pl.Theory
	}
	if s.Bound != nil {
		if err := s.Bound(&sys, pl, p, env, requests); err != nil {
			return engine.System{}, err
		}
	}
	bounded := sys.Within != nil || env.MaxDepth > 0
	switch {
	case requests == 0 && !bounded && env.MaxFlight == 0 && pl.Infinite != "":
		return engine.System{}, cliutil.Usagef("--requests 0 (no end) needs --max-flight or --max-depth here: the space is infinite, even with the checker's exact reductions: %s", pl.Infinite)
	case requests == 0 && !bounded && pl.Unexhausted != "":
		return engine.System{}, cliutil.Usagef("--requests 0 (no end) needs --max-depth here: %s", pl.Unexhausted)
	}
	return sys, nil
}

// build checks the workload's --nodes, --requests (at least minRequests:
// a check takes 0, no end) and times (cs-time, think-time), then builds
// the algorithm's plan from its own parameters.
func (s Spec) build(p engine.Params, minRequests int, times ...string) (Plan, error) {
	n, requests := p.Int("nodes"), p.Int("requests")
	least := max(s.MinNodes, 1)
	switch {
	case n < least || n > MaxNodes:
		return Plan{}, cliutil.Usagef("--nodes must be between %d and %d for %s, got %d", least, MaxNodes, s.Name, n)
	case requests < minRequests || requests > MaxRequests:
		return Plan{}, cliutil.Usagef("--requests must be between %d and %d, got %d", minRequests, MaxRequests, requests)
	}
	for _, f := range times {
		if v := p.Int64(f); v < 0 || v > MaxTicks {
			return Plan{}, cliutil.Usagef("--%s must be between 0 and %d ticks, got %d", f, MaxTicks, v)
		}
	}
	return s.Plan(p, n, requests)
}
