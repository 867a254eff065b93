package fair

import (
	"math"
	"math/bits"
)

// Unbounded is the most times a promise is overtaken when a cycle
// overtakes it: as often as you like.
const Unbounded = math.MaxInt64

// Stats are the figures of a pass over the graph.
type Stats struct {
	Edges      int64 // edges recorded
	SCCs       int64 // strongly connected components of the whole graph
	Cyclic     int64 // of them, those with a cycle
	Fair       int64 // of those, the fair ones: a run that keeps to one never ends
	Promises   int   // promises owed in some state
	Candidates int64 // components where one promise stays owed, checked for fairness
	Bytes      int64 // what the graph takes in the pass: edges, owed promises, rows
}

// Lasso is the cycle found for a promise: from state At, the labels of
// Cycle lead round and back to At. The caller finds the way to At.
type Lasso[L comparable] struct {
	At    int32
	Cycle []L
}

// Pass is the judgement of a recorded graph, promise by promise (Promise).
// Owed is the promises owed in some state, the ones worth judging.
type Pass[L comparable] struct {
	Owed  uint64
	Stats Stats
	g     *graph
	label []L // by number
	c     csr
	sc    *fairScratch
	comp  []int32  // by state: its component's number, scratch
	owed  []uint64 // by state: the promises it owes
	depth func(v int32) int32
}

// Judge starts the judgement of the graph once it is complete: it counts
// the components of the whole graph into Stats (SCCs, Cyclic, Fair).
// depth is how far a state is from the start: a lasso's cycle begins at
// its component's nearest state (the first such in the component's
// order).
func (g *Graph[L]) Judge(depth func(v int32) int32) *Pass[L] {
	p := &Pass[L]{g: &g.graph, label: g.labels, c: g.rows(), sc: newFairScratch(g.groups), depth: depth}
	p.Stats.Edges = int64(g.edges.Len())
	p.comp = make([]int32, g.owed.Len())
	g.census(p.c, p.comp, p.sc, &p.Stats)
	p.owed = make([]uint64, g.owed.Len())
	for v := range p.owed {
		p.owed[v] = *g.owed.At(v)
		p.Owed |= p.owed[v]
	}
	p.Stats.Promises = bits.OnesCount64(p.Owed)
	p.Stats.Bytes = int64(g.edges.Len())*8 + int64(len(p.owed))*8 + int64(len(p.c.off))*4
	return p
}

// census counts the strongly connected components of the whole graph,
// those with a cycle and those of them that are fair, into st (comp is
// scratch, one entry a state).
func (g *graph) census(c csr, comp []int32, sc *fairScratch, st *Stats) {
	all := func(int32) bool { return true }
	g.sccs(c, all, all, func(ms []int32) {
		st.SCCs++
		if len(ms) == 1 && g.selfEdge(c, ms[0], all) < 0 {
			return
		}
		st.Cyclic++
		for _, v := range ms {
			comp[v] = int32(st.Cyclic)
		}
		if g.fair(c, ms, func(e int32) bool { return comp[g.to(e)] == int32(st.Cyclic) }, sc) {
			st.Fair++
		}
	})
}

// Promise judges promise bit b: over the strongly connected components of
// the states that owe it, through the steps that do not keep it, it
// returns, when look is set, a fair cycle on which it stays owed (nil:
// none; a component with an edge inside is fair when every fairness group
// enabled in all its states is taken by one of its edges, and then one
// round of all of it is a fair cycle), and the most times another promise
// of its property is kept while it is owed (Unbounded: a cycle does).
func (p *Pass[L]) Promise(b int, look bool) (*Lasso[L], int64) {
	g, c := p.g, p.c
	bit := uint64(1) << b
	// the other promises of the same property: keeping one of them
	// while b is owed is an entry that overtakes b's
	group := (uint64(1)<<g.n - 1) << (b / g.n * g.n)
	if g.n == 64 {
		group = ^uint64(0)
	}
	others := group &^ bit
	owed := p.owed
	in := func(v int32) bool { return owed[v]&bit != 0 }
	use := func(e int32) bool { return g.kept(e)&bit == 0 }
	id := int32(0)
	comp := p.comp
	clear(comp)
	most := []int64{0} // by component id: the most overtakes from it on (Unbounded: a cycle that overtakes)
	worst := int64(0)
	var lasso *Lasso[L]
	g.sccs(c, in, use, func(ms []int32) {
		id++
		for _, v := range ms {
			comp[v] = id
		}
		m := g.overtakes(c, ms, comp, most, in, use, others)
		most = append(most, m)
		if worst != Unbounded {
			worst = max(worst, m)
		}
		if lasso != nil || !look || len(ms) == 1 && g.selfEdge(c, ms[0], use) < 0 {
			return
		}
		p.Stats.Candidates++
		inside := func(e int32) bool { return comp[g.to(e)] == id && use(e) }
		if g.fair(c, ms, inside, p.sc) {
			u, cyc := g.lasso(c, ms, inside, p.depth)
			lasso = &Lasso[L]{At: u}
			for _, e := range cyc {
				lasso.Cycle = append(lasso.Cycle, p.label[g.edges.At(int(e)).label()])
			}
		}
	})
	return lasso, worst
}

// overtakes is the most times a step keeps a promise of others from the
// component ms (numbered comp[ms[0]]) on, through the steps use allows
// into the states in holds (Unbounded: a cycle inside keeps one). The
// components come sinks first, so most already holds, by number, those
// reachable from ms.
func (g *graph) overtakes(c csr, ms []int32, comp []int32, most []int64, in func(int32) bool, use func(int32) bool, others uint64) int64 {
	id := comp[ms[0]]
	m := int64(0)
	for _, v := range ms {
		for k := c.off[v]; k < c.off[v+1] && m != Unbounded; k++ {
			e := c.edge(k)
			w := g.to(e)
			if !use(e) || !in(w) {
				continue
			}
			over := int64(0)
			if g.kept(e)&others != 0 {
				over = 1
			}
			switch {
			case comp[w] == id && over > 0:
				m = Unbounded
			case comp[w] == id:
			case most[comp[w]] == Unbounded:
				m = Unbounded
			default:
				m = max(m, most[comp[w]]+over)
			}
		}
	}
	return m
}

// selfEdge is an edge from v to v where use holds, or -1.
func (g *graph) selfEdge(c csr, v int32, use func(e int32) bool) int32 {
	for k := c.off[v]; k < c.off[v+1]; k++ {
		if e := c.edge(k); g.to(e) == v && use(e) {
			return e
		}
	}
	return -1
}

// fairScratch is fair's memory, by fairness group, kept between calls.
type fairScratch struct {
	seen, count, taken []int32
}

func newFairScratch(groups int) *fairScratch {
	return &fairScratch{seen: make([]int32, groups), count: make([]int32, groups), taken: make([]int32, groups)}
}

// fair reports whether every fairness group enabled in each state of ms
// (an edge of the group leaves it, in the whole graph) is taken by an
// edge inside. Under weak fairness such a component holds a fair cycle
// (one round of all of it), and a component without it holds none (a
// group enabled throughout and never taken stays so on every cycle
// inside).
func (g *graph) fair(c csr, ms []int32, inside func(e int32) bool, sc *fairScratch) bool {
	clear(sc.count)
	clear(sc.taken)
	clear(sc.seen)
	for _, v := range ms {
		for k := c.off[v]; k < c.off[v+1]; k++ {
			e := c.edge(k)
			gr := g.groupOfEdge(e)
			if gr < 0 {
				continue
			}
			if sc.seen[gr] != v+1 { // count each group once per state
				sc.seen[gr] = v + 1
				sc.count[gr]++
			}
			if inside(e) {
				sc.taken[gr] = 1
			}
		}
	}
	for gr, k := range sc.count {
		if int(k) == len(ms) && sc.taken[gr] == 0 {
			return false
		}
	}
	return true
}
