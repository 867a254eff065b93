package fair

import (
	"slices"

	"ringlab/engine/statespace/internal/store"
)

// Cycles is what a search that counts its graph's cycles keeps of it,
// to count them once the space is exhausted: every step taken, as the
// pair of its states' numbers (8 bytes a step, in chunks). Unlike Graph
// it takes the steps in any order, so it works under a partial-order
// reduction, whose sleep sets expand a state again. Step does nothing on
// a nil Cycles.
type Cycles struct {
	steps store.Chunked[[2]int32]
}

// Step records a step from state a to state b.
func (g *Cycles) Step(a, b int32) {
	if g != nil {
		g.steps.Push([2]int32{a, b})
	}
}

// Count is how many strongly connected components of the graph of n
// states hold a cycle (more than one state, or a step from a state to
// itself). It lets go of the steps recorded.
func (g *Cycles) Count(n int) int64 {
	off := make([]int32, n+1)
	for i := range g.steps.Len() {
		off[g.steps.At(i)[0]+1]++
	}
	for v := range n {
		off[v+1] += off[v]
	}
	to := make([]int32, g.steps.Len())
	fill := append([]int32(nil), off[:n]...)
	for i := range g.steps.Len() {
		st := g.steps.At(i)
		to[fill[st[0]]] = st[1]
		fill[st[0]]++
	}
	g.steps = store.Chunked[[2]int32]{} // the arrays above hold it now
	all := func(int32) bool { return true }
	var count int64
	tarjan(n, off, func(e int32) int32 { return to[e] }, all, all, func(ms []int32) {
		v := ms[0]
		if len(ms) > 1 || slices.Contains(to[off[v]:off[v+1]], v) {
			count++
		}
	})
	return count
}
