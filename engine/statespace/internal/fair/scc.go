package fair

// tarjan finds the strongly connected components of a graph of n states
// whose edges off[v]..off[v+1] leave v, each to the state to(e), on the
// subgraph of the states where in holds and the edges where use holds
// (Tarjan's algorithm, without recursion), and calls visit with each
// one's members, sinks first.
func tarjan(n int, off []int32, to func(e int32) int32, in func(v int32) bool, use func(e int32) bool, visit func(members []int32)) {
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
	for root := range int32(n) {
		if index[root] >= 0 || !in(root) {
			continue
		}
		calls = append(calls[:0], frame{v: root, k: off[root]})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.k < off[v+1] {
				e := f.k
				f.k++
				w := to(e)
				if !use(e) || !in(w) {
					continue
				}
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					calls = append(calls, frame{v: w, k: off[w]})
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
