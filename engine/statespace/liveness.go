package statespace

import (
	"fmt"
	"math/bits"
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
	Node     int      // the node it is owed to
	Detail   string   // in words
	Prefix   []Trans
	Cycle    []Trans
}

// String is the lasso as a --path: the prefix, a "|", then the cycle.
func (l *Lasso) String() string { return FormatLasso(l.Prefix, l.Cycle) }

// LiveStats are the figures of a liveness pass.
type LiveStats struct {
	Edges      int64         // edges kept
	SCCs       int64         // strongly connected components of the whole graph
	Cyclic     int64         // of them, those with a cycle
	Promises   int           // promises (property, node) judged
	Candidates int64         // components where one promise stays owed, checked for fairness
	Elapsed    time.Duration // the pass after the search
	GraphBytes int64         // what the kept graph takes
}

// livegraph is what the search keeps of the state graph for liveness:
// every state's owed promises, and every edge as a pair of state indices
// with the number of its label (the transition, interned).
type livegraph struct {
	n        int
	owed     []uint64
	from, to []int32
	label    []uint32
	kept     map[int32]uint64 // by edge: the promises its step kept (when any)
	labels   []Trans
	labelID  map[Trans]uint32
	group    []int32 // by label: its fairness group, -1 for a fault (never forced)
	groupID  map[Trans]int32
	groups   int
}

func newLivegraph(n int) *livegraph {
	return &livegraph{n: n, kept: map[int32]uint64{}, labelID: map[Trans]uint32{}, groupID: map[Trans]int32{}}
}

// state records the owed promises of the state just inserted.
func (g *livegraph) state(owed uint64) {
	if g != nil {
		g.owed = append(g.owed, owed)
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
		g.labelID[t] = id
		g.labels = append(g.labels, t)
		g.group = append(g.group, g.groupOf(t))
	}
	if kept != 0 {
		g.kept[int32(len(g.from))] = kept
	}
	g.from, g.to, g.label = append(g.from, a), append(g.to, b), append(g.label, id)
}

// groupOf is t's fairness group: one per message on a link (delivering
// or losing it takes it, wherever it stands on the link), one per node's
// commands, one per node's timer; faults have none.
func (g *livegraph) groupOf(t Trans) int32 {
	var k Trans
	switch t.Kind {
	case Deliver, Drop:
		k = Trans{Kind: Deliver, Node: t.Node, From: t.From, Msg: t.Msg}
	case Command:
		k = Trans{Kind: Command, Node: t.Node}
	case Fire:
		k = Trans{Kind: Fire, Node: t.Node, Timer: t.Timer}
	default:
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

// csr is the graph in compressed rows: the edges of state v are
// order[off[v]:off[v+1]].
type csr struct {
	off   []int32
	order []int32
}

func (g *livegraph) rows() csr {
	n := len(g.owed)
	c := csr{off: make([]int32, n+1), order: make([]int32, len(g.from))}
	for _, a := range g.from {
		c.off[a+1]++
	}
	for v := range n {
		c.off[v+1] += c.off[v]
	}
	next := slices.Clone(c.off[:n])
	for e, a := range g.from {
		c.order[next[a]] = int32(e)
		next[a]++
	}
	return c
}

// sccs finds the strongly connected components of the subgraph of the
// states where in holds and the edges where use holds (Tarjan's
// algorithm, without recursion), and calls visit with each one's members.
func (g *livegraph) sccs(c csr, in func(v int32) bool, use func(e int32) bool, visit func(members []int32)) {
	n := len(g.owed)
	index := make([]int32, n)
	low := make([]int32, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack, members []int32
	next := int32(0)
	type frame struct{ v, ei int32 }
	var calls []frame
	for root := range int32(n) {
		if index[root] >= 0 || !in(root) {
			continue
		}
		calls = append(calls[:0], frame{v: root, ei: c.off[root]})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.ei < c.off[v+1] {
				e := c.order[f.ei]
				f.ei++
				w := g.to[e]
				if !use(e) || !in(w) {
					continue
				}
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					calls = append(calls, frame{v: w, ei: c.off[w]})
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
	st := LiveStats{Edges: int64(len(g.from))}
	c := g.rows()
	all := func(int32) bool { return true }
	g.sccs(c, all, all, func(ms []int32) {
		st.SCCs++
		if len(ms) > 1 || g.selfLoop(c, ms[0]) {
			st.Cyclic++
		}
	})
	var any uint64
	for _, o := range g.owed {
		any |= o
	}
	st.Promises = bits.OnesCount64(any)
	var lasso *Lasso
	comp := make([]int32, len(g.owed))
	stamp := make([]int32, g.groups) // scratch of fair
	count := make([]int32, g.groups)
	for b := range 64 {
		bit := uint64(1) << b
		if any&bit == 0 || lasso != nil {
			continue
		}
		in := func(v int32) bool { return g.owed[v]&bit != 0 }
		use := func(e int32) bool { return g.kept[e]&bit == 0 }
		id := int32(0)
		g.sccs(c, in, use, func(ms []int32) {
			id++
			for _, v := range ms {
				comp[v] = id
			}
			if lasso != nil || !(len(ms) > 1 || g.selfLoop(c, ms[0]) && use(g.selfEdge(c, ms[0]))) {
				return
			}
			st.Candidates++
			inside := func(e int32) bool { return comp[g.to[e]] == id && use(e) }
			if !g.fair(c, ms, inside, stamp, count) {
				return
			}
			lasso = g.lasso(s, c, ms, inside)
			lasso.Node = b%g.n + 1
			lasso.Property = s.liveName(b / g.n)
		})
		for v := range comp {
			comp[v] = 0
		}
	}
	st.Elapsed = time.Since(start)
	st.GraphBytes = int64(len(g.from))*12 + int64(len(g.owed))*12 + int64(len(g.kept))*16
	if lasso != nil {
		lasso.Detail = fmt.Sprintf("a fair cycle of %d steps, reached after %d, on which node %d's promise stays owed for ever",
			len(lasso.Cycle), len(lasso.Prefix), lasso.Node)
	}
	return lasso, st
}

func (g *livegraph) selfLoop(c csr, v int32) bool { return g.selfEdge(c, v) >= 0 }

// selfEdge is an edge from v to v, or -1.
func (g *livegraph) selfEdge(c csr, v int32) int32 {
	for _, e := range c.order[c.off[v]:c.off[v+1]] {
		if g.to[e] == v {
			return e
		}
	}
	return -1
}

// fair reports whether every fairness group enabled in each state of ms
// (an edge of the group leaves it, in the whole graph) is taken by an
// edge inside. stamp and count are scratch, by group.
func (g *livegraph) fair(c csr, ms []int32, inside func(e int32) bool, stamp, count []int32) bool {
	clear(count)
	clear(stamp)
	for _, v := range ms {
		for _, e := range c.order[c.off[v]:c.off[v+1]] {
			gr := g.group[g.label[e]]
			if gr < 0 {
				continue
			}
			if stamp[gr] != int32(v)+1 { // count each group once per state
				stamp[gr] = int32(v) + 1
				count[gr]++
			}
		}
	}
	taken := make(map[int32]bool)
	for _, v := range ms {
		for _, e := range c.order[c.off[v]:c.off[v+1]] {
			if gr := g.group[g.label[e]]; gr >= 0 && inside(e) {
				taken[gr] = true
			}
		}
	}
	for gr, k := range count {
		if int(k) == len(ms) && !taken[int32(gr)] {
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
		if s.recs.at(int(v)).depth < s.recs.at(int(u)).depth {
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
			return missing < 0 || g.group[g.label[e]] == missing
		})
		if len(path) == 0 { // cannot happen in a fair component: judge checked it
			panic("statespace: a fair component without the edge or state its cycle needs")
		}
		cyc = append(cyc, path...)
		cur = g.to[path[len(path)-1]]
	}
	if cur != u {
		cyc = append(cyc, g.walk(c, cur, inside, func(v int32, e int32) bool { return e < 0 && v == u })...)
	}
	l := &Lasso{Prefix: s.path(u)}
	for _, e := range cyc {
		l.Cycle = append(l.Cycle, g.labels[g.label[e]])
	}
	return l
}

// unfairGroup is a fairness group enabled in every state of the cycle
// (u, then the ends of cyc's edges) and taken by none of its edges, or -1.
func (g *livegraph) unfairGroup(c csr, u int32, cyc []int32) int32 {
	states := []int32{u}
	taken := map[int32]bool{}
	for _, e := range cyc {
		states = append(states, g.to[e])
		taken[g.group[g.label[e]]] = true
	}
	for _, e := range c.order[c.off[u]:c.off[u+1]] {
		gr := g.group[g.label[e]]
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
	for _, e := range c.order[c.off[v]:c.off[v+1]] {
		if g.group[g.label[e]] == gr {
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
	via := map[int32]int32{a: -1}
	q := []int32{a}
	found := int32(-1)
	for len(q) > 0 && found < 0 {
		v := q[0]
		q = q[1:]
		for _, e := range c.order[c.off[v]:c.off[v+1]] {
			if !inside(e) {
				continue
			}
			w := g.to[e]
			if goal(v, e) {
				found = e
				break
			}
			if _, seen := via[w]; !seen {
				via[w] = e
				if goal(w, -1) {
					found = e
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
	for v := g.from[found]; via[v] >= 0; v = g.from[via[v]] {
		path = append(path, via[v])
	}
	slices.Reverse(path)
	return path
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

// CycleNote is the note a replayed lasso shows where its cycle begins:
// every renderer draws it (the SVG as a note on the first node of the
// cycle, the page in its replay).
const CycleNote = "⟳ cycle: repeats from here"

// ReplayLasso replays prefix, then one turn of cycle, reporting every
// event to sink (nil: none) and, between the two, a note (CycleNote) at
// the node of the cycle's first step. It fails when a label is not
// enabled where it comes or when the cycle does not come back to the
// state it began in.
func ReplayLasso(cfg Config, prefix, cycle []Trans, sink func(*trace.Event)) (ReplayResult, error) {
	var at *state
	rr, err := replayMarked(cfg, append(slices.Clone(prefix), cycle...), len(prefix), sink, func(m *machine, s *state) {
		at = s
		if sink != nil {
			m.fill(trace.KindNote, int(cycle[0].Node))
			m.ev.Note = CycleNote
			sink(&m.ev)
		}
	})
	if err != nil {
		return rr, err
	}
	if at == nil || string(at.appendKey(nil, rr.in)) != string(rr.end.appendKey(nil, rr.in)) {
		return rr, fmt.Errorf("the cycle %s does not come back to the state it starts in", FormatPath(cycle))
	}
	return rr, nil
}
