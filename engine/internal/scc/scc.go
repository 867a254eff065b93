// Package scc finds strongly connected components, for the two
// whole-graph analyses that need them: the search's liveness graph
// (statespace/internal/fair) and the explorer's (engine/explore).
package scc

// Components finds the strongly connected components of a graph of n vertices
// (Tarjan's algorithm, without recursion, so a long path cannot overflow
// the stack) and calls visit with each one's members, sinks first: a
// component is visited only after every component it reaches. visit may
// not keep members, which is reused.
//
// out(v) is the number of edges leaving v, and edge(v, k) is the vertex
// the k-th of them leads to, with false for an edge to leave out. in, if
// not nil, restricts the graph to the vertices where it holds.
func Components(n int, in func(v int32) bool, out func(v int32) int32, edge func(v, k int32) (int32, bool), visit func(members []int32)) {
	if in == nil {
		in = func(int32) bool { return true }
	}
	index := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack, members []int32
	next := int32(0)
	type frame struct{ v, k int32 }
	var calls []frame
	enter := func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		calls = append(calls, frame{v: v})
	}
	for root := range int32(n) {
		if index[root] >= 0 || !in(root) {
			continue
		}
		enter(root)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.k < out(v) {
				w, ok := edge(v, f.k)
				f.k++
				switch {
				case !ok || !in(w):
				case index[w] < 0:
					enter(w)
				case on[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				members = members[:0]
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					members = append(members, w)
					if w == v {
						break
					}
				}
				visit(members)
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
}
