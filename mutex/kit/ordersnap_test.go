package kit

import (
	"bytes"
	"testing"

	"ringlab/engine/trace"
)

func request(node int, t int64) *trace.Event {
	return &trace.Event{Kind: trace.KindCmd, Cmd: "request", Node: node, T: t}
}

// With Arrival the key is the order the waiting requests registered in,
// not their times or numbers: two paths that register the same nodes in
// the same order at other times reach one key, and the other order
// another. A broken order stays in the key; a clone is independent.
func TestGrantOrderKeyIsTheOrderOfArrival(t *testing.T) {
	run := func(evs ...*trace.Event) *GrantOrder {
		g := &GrantOrder{Order: RequestTime(), Strict: true}
		for _, e := range evs {
			g.Observe(e)
		}
		return g
	}
	a := run(request(1, 1), request(2, 2))
	b := run(request(3, 1), &trace.Event{Kind: trace.KindEnterCS, Node: 3, T: 5}, request(1, 9), request(2, 12))
	c := run(request(2, 1), request(1, 2))
	if !bytes.Equal(a.AppendKey(nil), b.AppendKey(nil)) {
		t.Errorf("the same order at other times: keys %v and %v", a.AppendKey(nil), b.AppendKey(nil))
	}
	if bytes.Equal(a.AppendKey(nil), c.AppendKey(nil)) {
		t.Errorf("the other order has the same key %v", a.AppendKey(nil))
	}
	before := a.AppendKey(nil)
	d := a.Clone().(*GrantOrder)
	if rep := d.Observe(&trace.Event{Kind: trace.KindEnterCS, Node: 2, T: 20}); rep == "" {
		t.Fatal("node 2 entered before node 1's earlier request: no report")
	}
	if !bytes.Equal(a.AppendKey(nil), before) {
		t.Error("observing the clone changed the original")
	}
	e := run(request(1, 1), request(2, 2), &trace.Event{Kind: trace.KindEnterCS, Node: 1, T: 3})
	f := run(request(1, 1), request(2, 2), &trace.Event{Kind: trace.KindEnterCS, Node: 2, T: 3}) // overtakes 1
	e.Observe(&trace.Event{Kind: trace.KindEnterCS, Node: 2, T: 4})
	f.Observe(&trace.Event{Kind: trace.KindEnterCS, Node: 1, T: 4})
	if bytes.Equal(e.AppendKey(nil), f.AppendKey(nil)) {
		t.Error("the state reached by an overtaking has the key of the one reached in order")
	}
}

// Keys that are timestamps are renamed with the nodes' (the shift, the
// renumbering), in a copy; nodes are renamed under a symmetry.
func TestGrantOrderRenames(t *testing.T) {
	key := Order{Kinds: trace.KindsOf(trace.KindCmd), Key: func(e *trace.Event) (int, Key, bool) {
		return e.Node, Key{e.T, int64(e.Node)}, e.Kind == trace.KindCmd
	}}
	g := &GrantOrder{Order: key, Strict: true}
	g.Observe(request(1, 7))
	g.Observe(request(2, 9))
	if got := g.AppendStamps(nil); len(got) != 2 || got[0] != 7 || got[1] != 9 {
		t.Fatalf("stamps %v", got)
	}
	h := g.RenameStamps(func(t int) int { return t - 6 }).(*GrantOrder)
	if got := h.AppendStamps(nil); got[0] != 1 || got[1] != 3 || g.AppendStamps(nil)[0] != 7 {
		t.Errorf("renamed %v, original %v", got, g.AppendStamps(nil))
	}
	h.RenameNodes([]int{0, 2, 1})
	if k, ok := h.find(2); !ok || k != (Key{1, 1}) {
		t.Errorf("after swapping nodes 1 and 2, node 2 waits with %v (%v)", k, ok)
	}
	if a := (&GrantOrder{Order: RequestTime()}); len(a.AppendStamps(nil)) != 0 {
		t.Error("arrival keys are no timestamps")
	}
}
