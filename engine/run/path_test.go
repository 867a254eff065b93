package run

import (
	"errors"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
)

// pass is nodetest's Pass as a node the checker can copy and key: a Pass
// keeps nothing from one step to the next, so its key is empty.
type pass struct{ *nodetest.Pass }

func (p pass) Clone() node.Node        { c := *p.Pass; return pass{&c} }
func (pass) AppendKey(b []byte) []byte { return b }

func passFactory(n, hops int) node.Factory {
	f := nodetest.PassFactory(n, hops)
	return func(i int) (node.Node, error) {
		nd, err := f(i)
		return pass{nd.(*nodetest.Pass)}, err
	}
}

// A checked path runs as a run: taken to its terminal state it ends
// quiescent and terminates; stopped short it is cut, so termination is not
// reached there (and not violated); a transition not enabled where it comes
// is a *BadPath.
func TestPathRunsAsARun(t *testing.T) {
	sys := engine.System{Name: "pass", Nodes: 3, Factory: passFactory(3, 3),
		Script: []node.Action{{Node: 1, Cmd: node.CmdStart}}, Messages: nodetest.MessageTypes()}
	sc := statespace.Config{System: engine.System{Nodes: sys.Nodes, Factory: sys.Factory, Script: sys.Script}}
	for _, tc := range []struct {
		path            string
		end             engine.End
		steps, messages int64
		ok, notReached  bool // termination's verdict
		badLabel        bool
	}{
		{path: "c1,d1-2,d2-3,d3-1", end: engine.Quiescent, steps: 4, messages: 3, ok: true},
		{path: "c1,d1-2", end: engine.Stopped, steps: 2, messages: 2, notReached: true},
		{path: "c1,d2-3", badLabel: true},
	} {
		steps, err := statespace.ParsePath(tc.path, sys.Nodes)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Run(t.Context(), sys, Path{Config: sc, Steps: steps}, Options{})
		if tc.badLabel {
			if _, ok := errors.AsType[*BadPath](err); !ok {
				t.Errorf("%s: err = %v, want a *BadPath", tc.path, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if r := out.Result; r.End != tc.end || r.Steps != tc.steps || r.Messages != tc.messages {
			t.Errorf("%s: end %v after %d steps, %d messages; want %v after %d, %d", tc.path,
				r.End, r.Steps, r.Messages, tc.end, tc.steps, tc.messages)
		}
		v := out.Summary.Verdicts
		if len(v) != 1 || v[0].Property != string(check.IDTermination) || v[0].OK != tc.ok || v[0].NotReached != tc.notReached {
			t.Errorf("%s: verdicts %+v, want termination ok %v, not reached %v", tc.path, v, tc.ok, tc.notReached)
		}
	}
}
