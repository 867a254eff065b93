package cli

import (
	"strings"
	"testing"
	"time"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
)

// cheater is a node that enters the critical section when told to and
// leaves it when told to, asking nobody: no message ever orders its
// critical section after another node's.
type cheater struct{}

func (cheater) Step(in node.Input, out *node.Output) {
	switch in.Cmd {
	case node.CmdRequest:
		out.EnterCS()
	case node.CmdRelease:
		out.ExitCS()
		out.Done = true
	}
}

// cheatSpec: node 1 enters and leaves; only once it has left is node 2
// told to enter (a reaction to node 1's exit, carried out by the runtime,
// not a message). In every run the two critical sections follow each other
// in time, so an observer that only orders events never sees them overlap.
func cheatSpec() engine.System {
	return engine.System{
		Name:    "test cheater",
		Nodes:   2,
		Factory: func(int) (node.Node, error) { return cheater{}, nil },
		Script:  []node.Action{{At: 0, Node: 1, Cmd: node.CmdRequest}},
		Workload: engine.ReactFunc(func(i int, ev node.Event, _ int64) []node.Action {
			switch {
			case ev.Kind == node.EvEnterCS:
				return []node.Action{{At: 1, Node: i, Cmd: node.CmdRelease}}
			case ev.Kind == node.EvExitCS && i == 1:
				return []node.Action{{At: 0, Node: 2, Cmd: node.CmdRequest}}
			}
			return nil
		}),
		Properties: []check.Property{&check.MutualExclusion{}, check.Termination{}},
	}
}

// Mutual exclusion by causality: node 2 enters without permission right
// after node 1 has left. Judged by the order of events (the simulator
// without clocks) that passes; with vector clocks — the live runtime, or
// the simulator with --vc — the two critical sections are not ordered by
// happens-before, and the run is a violation (exit 3) naming both nodes.
func TestCausalMutualExclusion(t *testing.T) {
	if _, _, err := execute(t, cheatSpec(), simOpts("none", 1)); err != nil {
		t.Fatalf("event order: %v (an observer of the order sees no overlap)", err)
	}
	vc := simOpts("none", 1)
	vc.VectorClocks = true
	live := Options{Runtime: "live", Format: "none", Tick: time.Millisecond, Timeout: time.Minute}
	for name, opts := range map[string]Options{"sim --vc": vc, "live": live} {
		o, _, err := execute(t, cheatSpec(), opts) // a System serves one run
		if cliutil.Code(err) != cliutil.ExitViolation {
			t.Fatalf("%s: err = %v (code %d), want a violation (3)", name, err, cliutil.Code(err))
		}
		if len(o.Violations) == 0 || !strings.Contains(o.Violations[0].Detail, "node 1 and node 2 are not ordered by happens-before") {
			t.Fatalf("%s: violations %+v", name, o.Violations)
		}
	}
}
