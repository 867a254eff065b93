package twophase

import (
	"fmt"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Algorithm describes two-phase commit to every ringlab tool: a run on
// any runtime, the explorer, the exhaustive checker, the renderers.
func Algorithm() engine.Algorithm {
	return engine.Algorithm{
		Name:         "2pc",
		Usage:        "two-phase commit: a coordinator and N participants vote, then all commit or all abort",
		Example:      "twophase 2pc --participants 3 --no 2 --seed 1",
		CheckExample: "twophase check 2pc --participants 2 --no 2 --eager",
		Params: []engine.Param{
			{Name: "participants", Usage: "number of participants `N` (nodes 2..N+1; node 1 is the coordinator)", Default: 3,
				Check: between(1, 16)},
			{Name: "no", Usage: "participant `P` (1..N) votes no (0: every participant votes yes)", Default: 0, Check: between(0, 16)},
			{Name: "eager", Usage: "the planted bug: the coordinator decides commit at the first yes", Default: false},
		},
		Build: build,
	}
}

func between(lo, hi int) func(any) error {
	return func(v any) error {
		if n := v.(int); n < lo || n > hi {
			return fmt.Errorf("must be between %d and %d, got %d", lo, hi, n)
		}
		return nil
	}
}

func build(p engine.Params, env engine.Env) (engine.System, error) {
	n, no := p.Int("participants"), p.Int("no")
	wait := 4 * env.MaxDelay // two round trips on the simulator
	if env.Runtime != "sim" {
		wait = 1000 // a second at the default --tick: a real network has no latency bound to scale
	}
	if no > n {
		return engine.System{}, fmt.Errorf("--no %d: there are %d participants (--participants)", no, n)
	}
	return engine.System{
		Name: "twophase 2pc", Nodes: n + 1, Topology: trace.TopoStar,
		Factory: func(i int) (node.Node, error) {
			return &Node{index: i, n: n, no: i == no+1, eager: p.Bool("eager"), wait: wait}, nil
		},
		Messages: []node.Msg{Prepare{}, Vote{}, Decision{}},
		Script:   []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Properties: []check.Property{&Atomicity{}, &Validity{Participants: n},
			check.Termination{}},
		Names: func(i int) string {
			if i == 1 {
				return "coordinator"
			}
			return fmt.Sprintf("P%d", i-1)
		},
	}, nil
}
