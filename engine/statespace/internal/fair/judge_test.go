package fair

import (
	"slices"
	"strings"
	"testing"
)

// edges are a hand-made graph's steps: from, to, label, promises kept.
type edges []struct {
	a, b int32
	t    string
	kept uint64
}

// build records a graph of len(owed) states, two promises a property,
// whose labels' fairness group is the label itself, except for a label
// that starts with "crash", a fault.
func build(owed []uint64, es edges) *Graph[string] {
	g := New(2, func(t string) (string, bool) { return t, !strings.HasPrefix(t, "crash") })
	for _, o := range owed {
		g.State(o)
	}
	for _, e := range es {
		g.Edge(e.a, e.b, e.t, e.kept)
	}
	return g
}

func depth(v int32) int32 { return v }

// A promise owed on a cycle that a fair scheduler leaves: state 0 owes
// promise 0 and may spin for ever, but grant, which keeps it, is enabled
// all the time and never taken on the spin, so no fair run spins for
// ever. The spin keeps promise 1 as often as you like all the same.
func TestUnfairCycleKeepsNoLasso(t *testing.T) {
	g := build([]uint64{1, 0}, edges{{0, 0, "spin", 2}, {0, 1, "grant", 1}})
	p := g.Judge(depth)
	if l, most := p.Promise(0, true); l != nil || most != Unbounded {
		t.Errorf("lasso %v, overtaken %d times, want none and Unbounded", l, most)
	}
	if s := p.Stats; s.SCCs != 2 || s.Cyclic != 1 || s.Fair != 0 || s.Candidates != 1 || s.Promises != 1 || s.Edges != 2 {
		t.Errorf("stats %+v", s)
	}
}

// A fair cycle: from state 0, go to 2 and back; grant, which keeps
// promise 0, is not enabled in state 2, so a fair scheduler may go round
// for ever. The crash, enabled everywhere, is a fault: fairness never
// forces it. The lasso starts at the cycle's shallowest state.
func TestFairCycleIsALasso(t *testing.T) {
	g := build([]uint64{1, 0, 1, 0}, edges{
		{0, 1, "grant", 1}, {0, 2, "go", 0}, {0, 3, "crash", 0},
		{2, 0, "back", 0}, {2, 3, "crash", 0},
	})
	p := g.Judge(depth)
	l, most := p.Promise(0, true)
	if l == nil || l.At != 0 || !slices.Equal(l.Cycle, []string{"go", "back"}) || most != 0 {
		t.Fatalf("lasso %+v, overtaken %d times, want go, back from 0 and none", l, most)
	}
	if l, _ := p.Promise(0, false); l != nil {
		t.Errorf("a lasso %+v where none was looked for", l)
	}
	if s := p.Stats; s.SCCs != 3 || s.Cyclic != 1 || s.Fair != 1 || s.Promises != 1 || s.Bytes != 5*8+4*8+5*4 {
		t.Errorf("stats %+v", s)
	}
}

// Overtaken twice on the way, never on a cycle: promise 1 is kept twice
// while promise 0 stays owed, then grant keeps it.
func TestOvertakenAsOftenAsThePathSays(t *testing.T) {
	g := build([]uint64{1, 1, 1, 0}, edges{{0, 1, "a", 2}, {1, 2, "b", 2}, {2, 3, "grant", 1}})
	if l, most := g.Judge(depth).Promise(0, true); l != nil || most != 2 {
		t.Errorf("lasso %v, overtaken %d times, want none and 2", l, most)
	}
}

// The graph's edges come state by state in order: going back is a bug of
// the search.
func TestEdgesOutOfOrderPanic(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	build([]uint64{0, 0}, edges{{1, 0, "a", 0}, {0, 1, "b", 0}})
}

// A nil graph records nothing: the search calls it the same when
// liveness is off.
func TestNilGraphRecordsNothing(t *testing.T) {
	var g *Graph[string]
	g.State(1)
	g.Edge(0, 0, "a", 0)
	var c *Cycles
	c.Step(0, 0)
}
