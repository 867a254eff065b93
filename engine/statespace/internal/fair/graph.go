// Package fair finds, in a graph recorded during a state-space search, a
// fair cycle on which a promise stays owed: a run that goes round it for
// ever is fair (weak fairness: every step that stays enabled is taken)
// and never keeps the promise, so it refutes a liveness property.
//
// The search records the graph as it goes (Graph: State for each state it
// numbers, Edge for each step it takes), then Judge looks for strongly
// connected components (Tarjan's algorithm) and judges them promise by
// promise. It also counts how often a waiting promise is overtaken
// (Pass.Promise) and, for a search that only asks whether its graph has
// cycles, counts the components that hold one (Cycles). States are
// numbers (int32) and steps carry a label of the caller's type L, of which
// the graph knows only its fairness group. Nothing here knows what a
// state or a transition is.
package fair

import (
	"ringlab/engine/statespace/internal/store"
)

// Graph is what a search keeps of the state graph for liveness: every
// state's owed promises (a bit each), and every edge as a pair of state
// numbers with its label (interned) and the promises its step kept
// (interned too): 8 bytes an edge, in chunks. The search adds a state's
// edges when it expands it, in the order it numbered the states (each
// state expanded once), so the edges of state v are one run,
// off[v]..off[v+1], and an edge needs no source.
//
// The promises come n to a property: bit k*n+i is property k's promise
// to the i-th node (i from 0). The methods that record (State, Edge) do
// nothing on a nil Graph, so a search that does not judge liveness calls
// them all the same.
type Graph[L comparable] struct {
	graph
	labels  []L // by number
	labelID map[L]uint32
	groupID map[L]int32
	groupOf func(L) (L, bool)
}

// graph is a Graph without its labels: states and edges by number, each
// edge's label by its number and fairness group. The searches run on it.
type graph struct {
	n       int
	owed    store.Chunked[uint64]
	edges   store.Chunked[edge]
	off     []int32 // by state: its first edge; filled as states are expanded
	group   []int32 // by label: its fairness group, -1 for a fault (never forced)
	groups  int
	keptIDs map[uint64]uint8
	keptOf  []uint64 // by kept number: the mask (0: none)
}

// edge is one edge: to is a state number; lk holds the label's number
// (low 24 bits) and the kept mask's number (high 8).
type edge struct {
	to int32
	lk uint32
}

const maxLabels = 1 << 24

func (e edge) label() uint32 { return e.lk & (maxLabels - 1) }
func (e edge) keptID() uint8 { return uint8(e.lk >> 24) }

// New makes an empty graph whose promises come n to a property (at most
// 64 promises in all). group maps a label to the key of its fairness
// group, the labels that one fair scheduler's obligation covers (one
// message on a link, whether delivered or lost; one node's commands; one
// timer), or false for a step that fairness never forces (a fault).
func New[L comparable](n int, group func(L) (L, bool)) *Graph[L] {
	return &Graph[L]{graph: graph{n: n, keptIDs: map[uint64]uint8{0: 0}, keptOf: []uint64{0}},
		labelID: map[L]uint32{}, groupID: map[L]int32{}, groupOf: group}
}

// State records the owed promises of the state just numbered.
func (g *Graph[L]) State(owed uint64) {
	if g != nil {
		g.owed.Push(owed)
	}
}

// Edge records the step t from state a to state b, which kept the
// promises kept. The steps from a state come together, the states in the
// order they were numbered; it panics otherwise, or past 16 million
// distinct labels or 255 distinct sets of promises kept by one step.
func (g *Graph[L]) Edge(a, b int32, t L, kept uint64) {
	if g == nil {
		return
	}
	id, ok := g.labelID[t]
	if !ok {
		id = uint32(len(g.labels))
		if id >= maxLabels {
			panic("fair: more than 16 million distinct transitions for the liveness graph")
		}
		g.labelID[t] = id
		g.labels = append(g.labels, t)
		g.group = append(g.group, g.intern(t))
	}
	k, ok := g.keptIDs[kept]
	if !ok {
		if len(g.keptOf) > 255 {
			panic("fair: more than 255 distinct sets of promises kept by one step")
		}
		k = uint8(len(g.keptOf))
		g.keptIDs[kept] = k
		g.keptOf = append(g.keptOf, kept)
	}
	switch last := int32(len(g.off)) - 1; {
	case a > last:
		for int32(len(g.off)) <= a {
			g.off = append(g.off, int32(g.edges.Len()))
		}
	case a < last:
		panic("fair: a state expanded out of order in a liveness search")
	}
	g.edges.Push(edge{to: b, lk: id | uint32(k)<<24})
}

// intern is t's fairness group's number, -1 for a fault.
func (g *Graph[L]) intern(t L) int32 {
	k, ok := g.groupOf(t)
	if !ok {
		return -1
	}
	id, ok := g.groupID[k]
	if !ok {
		id = int32(g.groups)
		g.groups++
		g.groupID[k] = id
	}
	return id
}

// kept is the promises edge e's step kept.
func (g *graph) kept(e int32) uint64 { return g.keptOf[g.edges.At(int(e)).keptID()] }

// to is edge e's end.
func (g *graph) to(e int32) int32 { return g.edges.At(int(e)).to }

// groupOfEdge is edge e's fairness group.
func (g *graph) groupOfEdge(e int32) int32 { return g.group[g.edges.At(int(e)).label()] }

// csr is the graph in compressed rows: the edges of state v are
// off[v]..off[v+1]-1.
type csr struct{ off []int32 }

func (c csr) edge(k int32) int32 { return k }

func (g *graph) rows() csr {
	n := g.owed.Len()
	off := make([]int32, n+1)
	copy(off, g.off)
	for v := len(g.off); v <= n; v++ {
		off[v] = int32(g.edges.Len())
	}
	return csr{off: off}
}

// sccs finds the strongly connected components of the subgraph of the
// states where in holds and the edges where use holds, and calls visit
// with each one's members.
func (g *graph) sccs(c csr, in func(v int32) bool, use func(e int32) bool, visit func(members []int32)) {
	tarjan(g.owed.Len(), c.off, g.to, in, use, visit)
}
