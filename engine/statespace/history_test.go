package statespace

import (
	"context"
	"ringlab/engine"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// once is a node that takes one command: node 1 then enters the critical
// section, the others do nothing but remember it.
type once struct {
	index int
	done  bool
}

func (n *once) Step(in node.Input, out *node.Output) {
	if in.Kind != node.InCmd || n.done {
		return
	}
	n.done = true
	if n.index == 1 {
		out.EnterCS()
	}
}

func (n *once) Clone() node.Node          { c := *n; return &c }
func (n *once) AppendKey(b []byte) []byte { return node.AppendBool(b, n.done) }

// askedFirst breaks when node 1 enters after node 2 was given its
// command: a history, which the order of two steps at different nodes
// decides. Its key keeps the break (check.OrderDependent's contract).
type askedFirst struct{ asked, broken bool }

func (*askedFirst) ID() check.ID { return "asked first" }
func (a *askedFirst) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: "asked first", OK: !a.broken}
}
func (a *askedFirst) Clone() check.Snapshot { c := *a; return &c }
func (a *askedFirst) AppendKey(b []byte) []byte {
	return node.AppendBool(node.AppendBool(b, a.asked), a.broken)
}
func (*askedFirst) Wants() trace.Kinds { return trace.KindsOf(trace.KindCmd, trace.KindEnterCS) }
func (a *askedFirst) Observe(e *trace.Event) string {
	switch {
	case e.Kind == trace.KindCmd && e.Node == 2:
		a.asked = true
	case e.Kind == trace.KindEnterCS && a.asked:
		a.broken = true
		return "node 1 entered after node 2 asked"
	}
	return ""
}

// orderDependent is askedFirst declared check.OrderDependent.
type orderDependent struct{ askedFirst }

func (o *orderDependent) Clone() check.Snapshot { c := *o; return &c }
func (*orderDependent) OrderDependent()         {}

// The sleep sets take steps at two nodes as independent: after c1 then
// c2, the search does not try c2 then c1, which reach the same nodes. A
// property shown commands that breaks only in the second order is missed
// unless it says it is check.OrderDependent: then a step that changes its
// key lets nothing sleep across it, and the two-step break is found with
// the reduction as without.
func TestOrderDependentStepsDoNotSleep(t *testing.T) {
	for _, tc := range []struct {
		prop    func() check.Property
		por     bool
		findsIt bool
	}{
		{func() check.Property { return &askedFirst{} }, false, true},
		{func() check.Property { return &askedFirst{} }, true, false}, // why the declaration is needed
		{func() check.Property { return &orderDependent{} }, false, true},
		{func() check.Property { return &orderDependent{} }, true, true},
	} {
		cfg := Config{
			System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &once{index: i}, nil }, Script: []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}}},
			Checks: func() []check.Property { return []check.Property{tc.prop()} },
			POR:    tc.por,
		}
		res, err := Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		found := res.Violation != nil && FormatPath(res.Path) == "c2,c1"
		if found != tc.findsIt {
			t.Errorf("%T, por %v: violation %v after %s, want found %v", tc.prop(), tc.por, res.Violation, FormatPath(res.Path), tc.findsIt)
		}
	}
}
