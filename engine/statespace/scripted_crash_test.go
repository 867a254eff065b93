package statespace_test

import (
	"context"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// sawCrash is a property judged where a run ends (it is no
// check.Snapshot): it holds if it saw node 2 crash.
type sawCrash struct{ saw bool }

func (*sawCrash) ID() check.ID { return "saw the crash" }
func (s *sawCrash) Observe(e *trace.Event) string {
	s.saw = s.saw || e.Kind == trace.KindCrash && e.Node == 2
	return ""
}
func (s *sawCrash) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: "saw the crash", OK: s.saw, Detail: "node 2's crash at tick 0 went unseen"}
}

// TestScriptedCrashIsSeenByEveryReplay: a crash scripted at tick 0 is an
// event of every replay, so the properties a terminal state is judged by
// (fresh ones, fed by a replay of its path) know the node is down, as a
// run's do.
func TestScriptedCrashIsSeenByEveryReplay(t *testing.T) {
	cfg := statespace.Config{
		System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &polite{i: i}, nil },
			Script: []node.Action{{Node: 2, Cmd: node.CmdCrash}, {Node: 1, Cmd: node.CmdRequest}}},
		Checks: func() []check.Property { return []check.Property{&sawCrash{}} },
	}
	res, err := statespace.Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted || res.Terminal == 0 {
		t.Fatalf("violation %+v, exhausted %v, %d terminal states: want none, true, some", res.Violation, res.Exhausted, res.Terminal)
	}
	var crashes int
	if _, err := statespace.Replay(cfg, nil, func(e *trace.Event) {
		if e.Kind == trace.KindCrash {
			crashes++
		}
	}); err != nil {
		t.Fatal(err)
	}
	if crashes != 1 {
		t.Fatalf("the empty path's replay shows %d crashes, want 1", crashes)
	}
}
