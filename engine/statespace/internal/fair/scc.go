package fair

import "ringlab/engine/internal/scc"

// tarjan finds the strongly connected components of a graph of n states
// whose edges off[v]..off[v+1] leave v, each to the state to(e), on the
// subgraph of the states where in holds and the edges where use holds,
// and calls visit with each one's members, sinks first (scc.Components on the
// rows of a compressed graph).
func tarjan(n int, off []int32, to func(e int32) int32, in func(v int32) bool, use func(e int32) bool, visit func(members []int32)) {
	out := func(v int32) int32 { return off[v+1] - off[v] }
	edge := func(v, k int32) (int32, bool) {
		e := off[v] + k
		return to(e), use(e)
	}
	scc.Components(n, in, out, edge, visit)
}
