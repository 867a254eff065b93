package statespace

import (
	"fmt"
	"math/bits"
	"ringlab/engine/statespace/internal/store"
	"slices"
	"time"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Fairness says, in words, what a liveness verdict of the checker
// assumes and what its ✓ means: the check.Eventually properties are
// judged over infinite schedules under weak fairness.
const Fairness = "weak fairness: a message that stays deliverable is eventually delivered (or lost, while the drop budget lasts), " +
	"and a node's command or timer that stays enabled is eventually taken; crashes, restarts and drops are never forced. " +
	"✓ means: on every fair infinite schedule within the fault budgets, every promise made is eventually kept"

// Lasso is a counterexample to a liveness property: Prefix leads from the
// initial state to a state of a fair cycle, and Cycle, taken from there,
// comes back to that state. On the cycle the promise to Node stays owed
// in every state and no step keeps it; every delivery, command and timer
// that stays enabled all the way round is taken on it (weak fairness), so
// the schedule prefix, cycle, cycle, ... is fair and the promise is never
// kept.
type Lasso struct {
	Property check.ID // the check.Eventually property whose promise is never kept
	Node     int      // the node it is owed to; 0 for a promise to the run as a whole (check.Whole)
	Detail   string   // in words
	Prefix   []Trans  // from the initial state to the cycle's first state
	Cycle    []Trans  // from that state back to it
}

// String is the lasso as a --path: the prefix, a "|", then the cycle.
func (l *Lasso) String() string { return FormatLasso(l.Prefix, l.Cycle) }

// LiveStats are the figures of a liveness pass.
type LiveStats struct {
	Edges      int64         // edges kept
	SCCs       int64         // strongly connected components of the whole graph
	Cyclic     int64         // of them, those with a cycle
	Fair       int64         // of those, the fair ones: a run that keeps to one never ends
	Promises   int           // promises (property, node) judged
	Candidates int64         // components where one promise stays owed, checked for fairness
	Elapsed    time.Duration // the pass after the search
	GraphBytes int64         // what the kept graph takes
	// Bypass is, for each promise made somewhere, the most promises of
	// the same property to other nodes kept while it stays owed, over
	// every schedule: how often a waiting node is overtaken.
	Bypass []Bypass
}

// Bypass is how often a node waiting for a promise of Property is
// overtaken, at most, over every schedule: Most promises to other nodes
// kept while its own stays owed (Unbounded: as often as you like, on a
// cycle, fair or not).
type Bypass struct {
	Property check.ID // the check.Eventually property
	Node     int      // the waiting node
	Most     int64    // the most times it is overtaken, or Unbounded
}

// livegraph is what the search keeps of the state graph for liveness:
// every state's owed promises, and every edge as a pair of state indices
// with its label (the transition, interned) and the promises its step
// kept (interned too): 8 bytes an edge, in chunks. The search adds a
// state's edges when it expands it, in the order it numbered the states
// (without the partial-order reduction no state is expanded twice), so
// the edges of state v are one run, off[v]..off[v+1], and an edge needs
// no source.
type livegraph struct {
	n       int
	owed    store.Chunked[uint64]
	edges   store.Chunked[ledge]
	off     []int32 // by state: its first edge; filled as states are expanded
	labels  []Trans
	labelID map[Trans]uint32
	group   []int32 // by label: its fairness group, -1 for a fault (never forced)
	groupID map[Trans]int32
	groups  int
	keptIDs map[uint64]uint8
	keptOf  []uint64 // by kept number: the mask (0: none)
}

// ledge is one edge: to is a state index; lk holds the label's number
// (low 24 bits) and the kept mask's number (high 8).
type ledge struct {
	to int32
	lk uint32
}

const maxLabels = 1 << 24

func (e ledge) label() uint32 { return e.lk & (maxLabels - 1) }
func (e ledge) keptID() uint8 { return uint8(e.lk >> 24) }

func newLivegraph(n int) *livegraph {
	return &livegraph{n: n, labelID: map[Trans]uint32{}, groupID: map[Trans]int32{},
		keptIDs: map[uint64]uint8{0: 0}, keptOf: []uint64{0}}
}

// state records the owed promises of the state just inserted.
func (g *livegraph) state(owed uint64) {
	if g != nil {
		g.owed.Push(owed)
	}
}

// edge records the step t from state a to state b, which kept the
// promises kept.
func (g *livegraph) edge(a, b int32, t Trans, kept uint64) {
	if g == nil {
		return
	}
	id, ok := g.labelID[t]
	if !ok {
		id = uint32(len(g.labels))
		if id >= maxLabels {
			panic("statespace: more than 16 million distinct transitions for the liveness graph")
		}
		g.labelID[t] = id
		g.labels = append(g.labels, t)
		g.group = append(g.group, g.groupOf(t))
	}
	k, ok := g.keptIDs[kept]
	if !ok {
		if len(g.keptOf) > 255 {
			panic("statespace: more than 255 distinct sets of promises kept by one step")
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
		panic("statespace: a state expanded out of order in a liveness search")
	}
	g.edges.Push(ledge{to: b, lk: id | uint32(k)<<24})
}

// kept is the promises edge e's step kept.
func (g *livegraph) kept(e int32) uint64 { return g.keptOf[g.edges.At(int(e)).keptID()] }

// to is edge e's end.
func (g *livegraph) to(e int32) int32 { return g.edges.At(int(e)).to }

// groupOfEdge is edge e's fairness group.
func (g *livegraph) groupOfEdge(e int32) int32 { return g.group[g.edges.At(int(e)).label()] }

// groupOf is t's fairness group: one per message on a link (delivering
// or losing it takes it, wherever it stands on the link), one per node's
// commands, one per node's timer; faults have none.
func (g *livegraph) groupOf(t Trans) int32 {
	k, ok := fairGroup(t)
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

// fairGroup is the key of t's fairness group (groupOf), false for a
// fault, which fairness never forces.
func fairGroup(t Trans) (Trans, bool) {
	switch t.Kind {
	case Deliver, Drop:
		return Trans{Kind: Deliver, Node: t.Node, From: t.From, Msg: t.Msg}, true
	case Command:
		return Trans{Kind: Command, Node: t.Node}, true
	case Fire:
		return Trans{Kind: Fire, Node: t.Node, Timer: t.Timer}, true
	}
	return Trans{}, false
}

// csr is the graph in compressed rows: the edges of state v are
// off[v]..off[v+1]-1.
type csr struct{ off []int32 }

func (c csr) edge(k int32) int32 { return k }

func (g *livegraph) rows() csr {
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
func (g *livegraph) sccs(c csr, in func(v int32) bool, use func(e int32) bool, visit func(members []int32)) {
	tarjan(g.owed.Len(), c.off, g.to, in, use, visit)
}

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

// judge looks, promise by promise, for a fair cycle on which the promise
// stays owed: a strongly connected component of the states that owe it,
// through steps that do not keep it, with an edge inside, such that every
// fairness group enabled in all its states is taken by one of its edges.
// Under weak fairness such a component holds a fair cycle (one round of
// all of it), and a component without it holds none (a group enabled
// throughout and never taken stays so on every cycle inside). The first
// found is returned as a lasso.
func (g *livegraph) judge(s *searcher) (*Lasso, LiveStats) {
	start := time.Now()
	st := LiveStats{Edges: int64(g.edges.Len())}
	c := g.rows()
	sc := newFairScratch(g.groups)
	comp := make([]int32, g.owed.Len())
	g.census(c, comp, sc, &st)
	var any uint64
	owed := make([]uint64, g.owed.Len())
	for v := range owed {
		owed[v] = *g.owed.At(v)
		any |= owed[v]
	}
	st.Promises = bits.OnesCount64(any)
	var lasso *Lasso
	ws := wholes(s.cfg)
	for _, b := range s.promiseOrder(any, g.n) {
		whole := isWhole(ws, b/g.n)
		look := lasso == nil && (s.cfg.Only == "" || s.liveName(b/g.n) == s.cfg.Only) // --property
		found, worst := g.promise(s, c, sc, &st, owed, comp, b, look)
		if found != nil {
			lasso = found
			lasso.Node = b%g.n + 1
			lasso.Property = s.liveName(b / g.n)
			if whole {
				lasso.Node, lasso.Detail = 0, ws[b/g.n]
			}
		}
		if !whole { // a promise to the run: nobody is overtaken
			st.Bypass = append(st.Bypass, Bypass{Property: s.liveName(b / g.n), Node: b%g.n + 1, Most: worst})
		}
	}
	st.Elapsed = time.Since(start)
	st.GraphBytes = int64(g.edges.Len())*8 + int64(len(owed))*8 + int64(len(c.off))*4
	switch {
	case lasso != nil && lasso.Node == 0:
		lasso.Detail = fmt.Sprintf("a fair cycle of %d steps, reached after %d, on which %s, for ever",
			len(lasso.Cycle), len(lasso.Prefix), lasso.Detail)
	case lasso != nil:
		lasso.Detail = fmt.Sprintf("a fair cycle of %d steps, reached after %d, on which node %d's promise stays owed for ever",
			len(lasso.Cycle), len(lasso.Prefix), lasso.Node)
	}
	return lasso, st
}

// census counts the strongly connected components of the whole graph,
// those with a cycle and those of them that are fair, into st (comp is
// scratch, one entry a state).
func (g *livegraph) census(c csr, comp []int32, sc *fairScratch, st *LiveStats) {
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

// promise judges promise bit b (owed, by state, the promises owed; comp
// scratch): over the components of the states that owe it, through the
// steps that do not keep it, it returns, when look is set, a fair cycle
// on which it stays owed (nil: none), and the most times another promise
// of its property is kept while it is owed (Unbounded: a cycle does).
func (g *livegraph) promise(s *searcher, c csr, sc *fairScratch, st *LiveStats, owed []uint64, comp []int32, b int, look bool) (*Lasso, int64) {
	bit := uint64(1) << b
	// the other promises of the same property: keeping one of them
	// while b is owed is an entry that overtakes b's
	group := (uint64(1)<<g.n - 1) << (b / g.n * g.n)
	if g.n == 64 {
		group = ^uint64(0)
	}
	others := group &^ bit
	in := func(v int32) bool { return owed[v]&bit != 0 }
	use := func(e int32) bool { return g.kept(e)&bit == 0 }
	id := int32(0)
	clear(comp)
	most := []int64{0} // by component id: the most overtakes from it on (Unbounded: a cycle that overtakes)
	worst := int64(0)
	var lasso *Lasso
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
		st.Candidates++
		inside := func(e int32) bool { return comp[g.to(e)] == id && use(e) }
		if g.fair(c, ms, inside, sc) {
			lasso = g.lasso(s, c, ms, inside)
		}
	})
	return lasso, worst
}

// overtakes is the most times a step keeps a promise of others from the
// component ms (numbered comp[ms[0]]) on, through the steps use allows
// into the states in holds (Unbounded: a cycle inside keeps one). The
// components come sinks first, so most already holds, by number, those
// reachable from ms.
func (g *livegraph) overtakes(c csr, ms []int32, comp []int32, most []int64, in func(int32) bool, use func(int32) bool, others uint64) int64 {
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
func (g *livegraph) selfEdge(c csr, v int32, use func(e int32) bool) int32 {
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
// edge inside.
func (g *livegraph) fair(c csr, ms []int32, inside func(e int32) bool, sc *fairScratch) bool {
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

// lasso builds a fair cycle in the fair component ms from its state
// nearest the start, and the shortest path there. It grows the cycle from
// that state until every group enabled all the way round is taken: to an
// edge of the group inside, or to a state where it is not enabled.
func (g *livegraph) lasso(s *searcher, c csr, ms []int32, inside func(e int32) bool) *Lasso {
	u := ms[0]
	for _, v := range ms {
		if s.recs.DepthOf(v) < s.recs.DepthOf(u) {
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
		if len(path) == 0 { // cannot happen in a fair component: judge checked it
			panic("statespace: a fair component without the edge or state its cycle needs")
		}
		cyc = append(cyc, path...)
		cur = g.to(path[len(path)-1])
	}
	if cur != u {
		cyc = append(cyc, g.walk(c, cur, inside, func(v int32, e int32) bool { return e < 0 && v == u })...)
	}
	l := &Lasso{Prefix: s.path(u)}
	for _, e := range cyc {
		l.Cycle = append(l.Cycle, g.labels[g.edges.At(int(e)).label()])
	}
	return l
}

// unfairGroup is a fairness group enabled in every state of the cycle
// (u, then the ends of cyc's edges) and taken by none of its edges, or -1.
func (g *livegraph) unfairGroup(c csr, u int32, cyc []int32) int32 {
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
func (g *livegraph) enables(c csr, v int32, gr int32) bool {
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
func (g *livegraph) walk(c csr, a int32, inside func(e int32) bool, goal func(v, e int32) bool) []int32 {
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

// promiseOrder lists the bits of the promises owed somewhere (any), in
// the order the liveness pass tries them (n promises a property): the
// property's order, but termination's last, since every fair cycle is a
// run that does not end, and a property more particular that the same
// cycle refutes says more of it.
func (s *searcher) promiseOrder(any uint64, n int) []int {
	var first, last []int
	for b := range 64 {
		switch {
		case any&(1<<b) == 0:
		case s.liveName(b/n) == check.IDTermination:
			last = append(last, b)
		default:
			first = append(first, b)
		}
	}
	return append(first, last...)
}

// liveName is the ID of the k-th check.Eventually property of the run.
func (s *searcher) liveName(k int) check.ID {
	if s.cfg.Checks == nil {
		return ""
	}
	for _, p := range s.cfg.Checks() {
		if _, ok := p.(check.Eventually); ok {
			if k == 0 {
				return p.ID()
			}
			k--
		}
	}
	return ""
}

// CycleNote is the note a replayed lasso shows where its cycle begins
// (trace.CycleNote): every renderer draws it, the SVG and the page mark
// the cycle from there on.
const CycleNote = trace.CycleNote

// StutterNote is the note a replayed lasso with an empty cycle shows
// where its prefix ends: a state where no step is enabled, in which an
// infinite behaviour stays for ever (TLC's "stuttering"), so that a
// promise owed there is never kept.
const StutterNote = "⟳ stutters: nothing can happen here, so the run stays in this state for ever"

// ReplayLasso replays prefix, then one turn of cycle, reporting every
// event to sink (nil: none) and, between the two, a note (CycleNote) at
// the node of the cycle's first step. An empty cycle is a stutter: the
// prefix must end in a terminal state, where the note is StutterNote (at
// the node of the prefix's last step). It fails when a label is not
// enabled where it comes or when the cycle does not come back to the
// state it began in: the same state, or, where the search shifts clocks
// and renames identifiers (shift.go, rename.go), one with the same shift,
// which takes the same steps again (the next turn with every clock higher,
// or new request numbers). The states are compared without their
// check.OrderDependent properties, which a search for one other property
// leaves out (history.go).
func ReplayLasso(cfg Config, prefix, cycle []Trans, sink func(*trace.Event)) (ReplayResult, error) {
	var at *state
	canon := func(s *state) *state { return s }
	rr, err := replayMarked(cfg, append(slices.Clone(prefix), cycle...), len(prefix), sink, func(m *machine, s *state) {
		at = s
		if shiftable(cfg) {
			canon = m.shift
		}
		if sink != nil {
			who, note := 1, StutterNote
			switch {
			case len(cycle) > 0:
				who, note = int(cycle[0].Node), CycleNote
			case len(prefix) > 0:
				who = int(prefix[len(prefix)-1].Node)
			}
			m.fill(trace.KindNote, who)
			m.ev.Note = note
			sink(&m.ev)
		}
	})
	if err != nil {
		return rr, err
	}
	if len(cycle) == 0 && !rr.Terminated {
		return rr, fmt.Errorf("nothing after \"|\" (a stutter), but the prefix %q does not end where nothing can happen: give the cycle's labels", FormatPath(prefix))
	}
	if at == nil || string(loopKey(canon(at), rr.in)) != string(loopKey(canon(rr.end), rr.in)) {
		return rr, fmt.Errorf("the cycle %s does not come back to the state it starts in", FormatPath(cycle))
	}
	return rr, nil
}
