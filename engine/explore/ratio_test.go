package explore

import (
	"math/rand/v2"
	"testing"

	"ringlab/engine/statespace"
)

// randomGraph is a graph of n states, every one reachable from state 0
// (a chain of parents), with random extra edges each sending 0..3
// messages and keeping 0..1 promises.
func randomGraph(r *rand.Rand, n int) *graph {
	g := &graph{succ: make([][]edge, n), parent: make([]int32, n), via: make([]statespace.Trans, n), infos: []edgeInfo{{}, {kept: 1}}}
	g.parent[0] = -1
	add := func(a, b int) {
		e := edge{to: int32(b), sent: int32(r.IntN(4)), t: statespace.Trans{Node: int16(a), Timer: int32(b)}}
		if r.IntN(3) == 0 {
			e.info = 1 // keeps a promise
		}
		g.succ[a] = append(g.succ[a], e)
	}
	for v := 1; v < n; v++ {
		p := r.IntN(v)
		g.parent[v], g.via[v] = int32(p), statespace.Trans{Node: int16(p), Timer: int32(v)}
		add(p, v)
	}
	for range r.IntN(2 * n) {
		add(r.IntN(n), r.IntN(n))
	}
	return g
}

// cycleRatios is, by brute force over every simple cycle with an entry,
// the least and greatest messages/entries as fractions, and whether some
// cycle sends without an entry.
func cycleRatios(g *graph) (lo, hi [2]int64, any, unbounded bool) {
	n := len(g.succ)
	less := func(a, b [2]int64) bool { return a[0]*b[1] < b[0]*a[1] }
	var walk func(start, v int, seen []bool, msgs, ents int64)
	walk = func(start, v int, seen []bool, msgs, ents int64) {
		for _, e := range g.succ[v] {
			m, k := msgs+int64(e.sent), ents+g.entries(e)
			w := int(e.to)
			switch {
			case w == start && k == 0 && m > 0:
				unbounded = true
			case w == start && k > 0:
				r := [2]int64{m, k}
				if !any || less(r, lo) {
					lo = r
				}
				if !any || less(hi, r) {
					hi = r
				}
				any = true
			case w > start && !seen[w]:
				seen[w] = true
				walk(start, w, seen, m, k)
				seen[w] = false
			}
		}
	}
	for s := range n {
		seen := make([]bool, n)
		seen[s] = true
		walk(s, s, seen, 0, 0)
	}
	return lo, hi, any, unbounded
}

// The descent on the ratio finds the least and the greatest messages per
// entry over every cycle, as brute force over the simple cycles of small
// random graphs does, and the cycles it prints attain them.
func TestPerEntryIsTheBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 24))
	for trial := range 400 {
		g := randomGraph(r, 2+r.IntN(6))
		lo, hi, any, unbounded := cycleRatios(g)
		pe := g.perEntry()
		if (pe != nil) != any {
			t.Fatalf("trial %d: per entry %+v, brute force finds a cycle with an entry: %v", trial, pe, any)
		}
		if pe == nil {
			continue
		}
		if pe.FewestMsgs*lo[1] != lo[0]*pe.FewestEntries {
			t.Errorf("trial %d: fewest %d/%d, brute force %d/%d", trial, pe.FewestMsgs, pe.FewestEntries, lo[0], lo[1])
		}
		if unbounded != (pe.MostMsgs == statespace.Unbounded) {
			t.Errorf("trial %d: most %d/%d, brute force unbounded %v", trial, pe.MostMsgs, pe.MostEntries, unbounded)
		}
		if !unbounded && pe.MostMsgs*hi[1] != hi[0]*pe.MostEntries {
			t.Errorf("trial %d: most %d/%d, brute force %d/%d", trial, pe.MostMsgs, pe.MostEntries, hi[0], hi[1])
		}
		if len(pe.FewestCycle) == 0 || int32(pe.FewestCycle[0].Node) != pe.FewestCycle[len(pe.FewestCycle)-1].Timer {
			t.Errorf("trial %d: the fewest's cycle %v does not close", trial, pe.FewestCycle)
		}
	}
}
