package fair

import "slices"

// lasso builds a fair cycle in the fair component ms and returns its
// first state, the one of ms nearest the start (by depth; the first such
// in ms), and its edges. It grows the cycle from that state until every
// group enabled all the way round is taken: to an edge of the group
// inside, or to a state where it is not enabled.
func (g *graph) lasso(c csr, ms []int32, inside func(e int32) bool, depth func(v int32) int32) (int32, []int32) {
	u := ms[0]
	for _, v := range ms {
		if depth(v) < depth(u) {
			u = v
		}
	}
	var cyc []int32 // edges
	cur := u
	for {
		missing := g.unfairGroup(c, u, cyc)
		if missing < 0 && len(cyc) > 0 {
			break
		}
		// a target: an edge of the missing group inside, or a state where
		// it is not enabled (any edge inside when the cycle is empty)
		path := g.walk(c, cur, inside, func(v int32, e int32) bool {
			if e < 0 {
				return missing >= 0 && !g.enables(c, v, missing)
			}
			return missing < 0 || g.groupOfEdge(e) == missing
		})
		if len(path) == 0 { // cannot happen in a fair component: Promise checked it
			panic("fair: a fair component without the edge or state its cycle needs")
		}
		cyc = append(cyc, path...)
		cur = g.to(path[len(path)-1])
	}
	if cur != u {
		cyc = append(cyc, g.walk(c, cur, inside, func(v int32, e int32) bool { return e < 0 && v == u })...)
	}
	return u, cyc
}

// unfairGroup is a fairness group enabled in every state of the cycle
// (u, then the ends of cyc's edges) and taken by none of its edges, or -1.
func (g *graph) unfairGroup(c csr, u int32, cyc []int32) int32 {
	states := []int32{u}
	taken := map[int32]bool{}
	for _, e := range cyc {
		states = append(states, g.to(e))
		taken[g.groupOfEdge(e)] = true
	}
	for k := c.off[u]; k < c.off[u+1]; k++ {
		gr := g.groupOfEdge(c.edge(k))
		if gr < 0 || taken[gr] {
			continue
		}
		everywhere := true
		for _, v := range states[1:] {
			if !g.enables(c, v, gr) {
				everywhere = false
				break
			}
		}
		if everywhere {
			return gr
		}
	}
	return -1
}

// enables reports whether an edge of group gr leaves v.
func (g *graph) enables(c csr, v int32, gr int32) bool {
	for k := c.off[v]; k < c.off[v+1]; k++ {
		if g.groupOfEdge(c.edge(k)) == gr {
			return true
		}
	}
	return false
}

// walk is a shortest list of edges inside from a to a target: a state v
// with goal(v, -1), or the end of an edge e with goal(src, e) (the edge
// included). The component is strongly connected, so a target inside it
// is always reached.
func (g *graph) walk(c csr, a int32, inside func(e int32) bool, goal func(v, e int32) bool) []int32 {
	type step struct{ prev, e int32 }
	via := map[int32]step{a: {-1, -1}}
	q := []int32{a}
	found, src := int32(-1), int32(-1)
	for len(q) > 0 && found < 0 {
		v := q[0]
		q = q[1:]
		for k := c.off[v]; k < c.off[v+1]; k++ {
			e := c.edge(k)
			if !inside(e) {
				continue
			}
			w := g.to(e)
			if goal(v, e) {
				found, src = e, v
				break
			}
			if _, seen := via[w]; !seen {
				via[w] = step{v, e}
				if goal(w, -1) {
					found, src = e, v
					break
				}
				q = append(q, w)
			}
		}
	}
	if found < 0 {
		return nil
	}
	path := []int32{found}
	for v := src; via[v].e >= 0; v = via[v].prev {
		path = append(path, via[v].e)
	}
	slices.Reverse(path)
	return path
}
