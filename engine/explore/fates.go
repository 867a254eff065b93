package explore

import (
	"container/heap"
	"context"
	"fmt"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/internal/scc"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// Fate is what a state decides about a violation, over every way the run
// can go on from it.
type Fate uint8

const (
	// Safe: no violation is reachable from the state.
	Safe Fate = iota + 1
	// Reachable: some continuation violates a property, some does not.
	Reachable
	// Unavoidable: every continuation violates a property (the state
	// itself may already be a violation).
	Unavoidable
	// Undecided: no violation is reachable within the state constraint
	// (statespace.Config.Within, statespace.Config.MaxFlight), but a state
	// beyond it is, and what lies beyond is not explored.
	Undecided
)

// String names the fate as the page shows it.
func (f Fate) String() string {
	switch f {
	case Safe:
		return "safe"
	case Reachable:
		return "reachable"
	case Unavoidable:
		return "unavoidable"
	case Undecided:
		return "undecided"
	}
	return "unknown"
}

// Fates is the whole state graph of a system, explored without the
// partial-order reduction, with what each state decides: its Fate, and the
// fewest and most messages any continuation still sends before the run
// ends (or a violation stops it).
type Fates struct {
	ids      map[uint64]int32 // state key (Explorer.key) -> index
	fate     []Fate
	dist     []int32 // steps to the nearest violation, -1: none reachable
	min, max []int64
	succ     [][]edge // the graph, for the paths that attain min and max
	ext      extra    // what Extremes reports beyond the totals
	// States and Edges count the graph.
	States, Edges int
}

// edge is one transition of the graph.
type edge struct {
	to   int32
	sent int32
	info int32            // what else Analyze needs of the step: graph.infos[info]
	t    statespace.Trans // the transition (forward edges only)
}

// edgeInfo is what Analyze's figures need of a step beyond its count of
// messages, interned (few distinct values: an edge stays 28 bytes): the
// sends by type, graph.mixes[mix], and the promises the step kept
// (statespace.Machine.Kept).
type edgeInfo struct {
	mix  int32
	kept uint64
}

// Analyze explores the whole state space of x's system, up to limit distinct
// states (0: no limit), and computes every state's Fate and message bounds by
// backward passes over the graph. It fails when the space has more than limit
// states or ctx is done first.
//
// A state is a violation when the step into it violated a property, or when it
// is terminal and a property fails at the end of the run; a violation is not
// expanded. Nor is a state beyond the state constraint
// (statespace.Config.Within, statespace.Config.MaxFlight), as in Search: a
// state that can reach one and no violation is Undecided, and its messages left
// are unknown.
func (x *Explorer) Analyze(ctx context.Context, limit int) (*Fates, error) {
	return x.analyze(ctx, limit, false)
}

// AnalyzeExtremes is Analyze for the worst and best case over every schedule:
// with every state replaced by its clock shift (statespace.Machine.Reduced)
// where the search would shift it, so that the space of a workload that never
// ends, whose Lamport clocks grow without bound, stays finite (the shift is
// exact: every figure is the same), and with every figure of Extremes and
// PerEntry computed (Analyze gives Extremes' totals only). Its paths replay
// from the real initial state. Unlike Analyze it expands states beyond a state
// constraint too (the extremes are over every schedule).
func (x *Explorer) AnalyzeExtremes(ctx context.Context, limit int) (*Fates, error) {
	return x.analyze(ctx, limit, true)
}

func (x *Explorer) analyze(ctx context.Context, limit int, extremes bool) (*Fates, error) {
	bounded := !extremes && (x.cfg.Within != nil || x.cfg.MaxFlight > 0)
	s0 := x.m.Initial()
	if extremes {
		s0 = x.m.Reduced(s0)
	}
	g := &graph{x: x, ids: map[uint64]int32{}}
	g.add(s0, -1, statespace.Trans{})
	toRun := x.wholeBits() // kept by an entry, but no entry of their own
	var ts []statespace.Trans
	for k := 0; k < len(g.states); k++ {
		if k%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s := g.states[k]
		if g.bad[k] {
			continue
		}
		if bounded && !x.m.Within(s) {
			g.beyond[k] = true
			g.states[k] = statespace.State{}
			continue
		}
		if x.m.Terminal(s) {
			v, err := g.judge(int32(k))
			if err != nil {
				return nil, err
			}
			g.bad[k] = v
			continue
		}
		ts = x.m.Enabled(s, ts[:0])
		for _, t := range ts {
			next, viol, err := x.m.Step(s, t)
			if err != nil {
				return nil, err
			}
			if extremes {
				next = x.m.Reduced(next)
			}
			info := int32(0)
			if extremes {
				info = g.info(edgeInfo{mix: g.mix(x.m.Sent()), kept: x.m.Kept() &^ toRun})
			}
			to := g.add(next, int32(k), t)
			if viol != nil {
				g.bad[to] = true
			}
			g.succ[k] = append(g.succ[k], edge{to: to, sent: int32(len(x.m.Sent())), info: info, t: t})
			g.edges++
		}
		if limit > 0 && len(g.states) > limit {
			return nil, fmt.Errorf("explore: more than %d states: too many to decide every step's fate", limit)
		}
		g.states[k] = statespace.State{} // expanded: only its edges are needed now
	}
	f := &Fates{ids: g.ids, States: len(g.states), Edges: g.edges, succ: g.succ}
	var past []bool
	f.fate, f.dist, past = g.fates()
	f.min, f.max = g.messages(nil)
	for i, p := range past {
		if p {
			f.min[i] = statespace.Unbounded // unknown: a run may go on beyond the bound
		}
	}
	if extremes {
		f.ext = g.extremes()
	}
	return f, nil
}

// Fate returns the fate of the state whose View.Key (or Step.Next) is key.
func (f *Fates) Fate(key uint64) (Fate, bool) {
	i, ok := f.ids[key]
	if !ok {
		return 0, false
	}
	return f.fate[i], true
}

// ToViolation returns the fewest steps from the state whose key is key to
// a violation; ok is false for an unknown key, or a state from which no
// violation is reachable.
func (f *Fates) ToViolation(key uint64) (steps int, ok bool) {
	i, found := f.ids[key]
	if !found || f.dist[i] < 0 {
		return 0, false
	}
	return int(f.dist[i]), true
}

// MessagesLeft returns the fewest and the most messages any continuation of the
// state whose key is key sends before the run ends or a violation stops it;
// most is statespace.Unbounded when a continuation can send for ever. ok is
// false for an unknown key, or a state from which no run ends.
func (f *Fates) MessagesLeft(key uint64) (fewest, most int64, ok bool) {
	i, found := f.ids[key]
	if !found || f.min[i] == statespace.Unbounded {
		return 0, 0, false
	}
	return f.min[i], f.max[i], true
}

// graph is the explored state graph while Analyze builds it.
type graph struct {
	x      *Explorer
	ids    map[uint64]int32
	states []statespace.State // none once expanded
	parent []int32
	via    []statespace.Trans
	bad    []bool
	beyond []bool // beyond the state constraint: not expanded
	succ   [][]edge
	edges  int
	// by state: messages in flight, the most on one link (and which),
	// and the promises owed (statespace.Config.Liveness)
	flight, onLink []int32
	link           [][2]uint8           // the link From -> To
	net            []statespace.Message // scratch: the messages in flight
	owed           []uint64
	// the message types met, in order of first send, and each edge's
	// sends counted by type (mixes[0]: none)
	types  []string
	typeID map[string]int32
	mixes  [][]int32
	mixID  map[string]int32
	infos  []edgeInfo
	infoID map[edgeInfo]int32
}

// info returns the number of in, interned.
func (g *graph) info(in edgeInfo) int32 {
	if id, ok := g.infoID[in]; ok {
		return id
	}
	if g.infoID == nil {
		g.infoID = map[edgeInfo]int32{}
	}
	id := int32(len(g.infos))
	g.infos = append(g.infos, in)
	g.infoID[in] = id
	return id
}

// kept is the promises edge e's step kept.
func (g *graph) kept(e edge) uint64 { return g.infos[e.info].kept }

// add returns the index of s, recording it (reached from parent by t) if
// it is new.
func (g *graph) add(s statespace.State, parent int32, t statespace.Trans) int32 {
	k := g.x.m.Key(s)
	if i, ok := g.ids[k]; ok {
		return i
	}
	i := int32(len(g.states))
	g.ids[k] = i
	g.states, g.parent, g.via = append(g.states, s), append(g.parent, parent), append(g.via, t)
	g.bad, g.succ, g.beyond = append(g.bad, false), append(g.succ, nil), append(g.beyond, false)
	g.net = g.x.m.AppendFlights(g.net[:0], s)
	most, link := int32(0), [2]uint8{}
	for _, m := range g.net {
		if on := int32(m.K + 1); on > most {
			most, link = on, [2]uint8{uint8(m.From), uint8(m.To)}
		}
	}
	g.flight, g.onLink, g.link = append(g.flight, int32(len(g.net))), append(g.onLink, most), append(g.link, link)
	g.owed = append(g.owed, g.x.m.Owed(s))
	return i
}

// mix returns the number of the sends' counts by message type, interned.
func (g *graph) mix(sends []node.Send) int32 {
	if len(sends) == 0 {
		if g.mixes == nil {
			g.typeID, g.mixID = map[string]int32{}, map[string]int32{"": 0}
			g.mixes = [][]int32{nil}
		}
		return 0
	}
	if g.mixes == nil {
		g.mix(nil)
	}
	var counts []int32
	for _, sd := range sends {
		ty := sd.Msg.Type()
		id, ok := g.typeID[ty]
		if !ok {
			id = int32(len(g.types))
			g.types = append(g.types, ty)
			g.typeID[ty] = id
		}
		for int(id) >= len(counts) {
			counts = append(counts, 0)
		}
		counts[id]++
	}
	key := fmt.Sprint(counts)
	if id, ok := g.mixID[key]; ok {
		return id
	}
	id := int32(len(g.mixes))
	g.mixes = append(g.mixes, counts)
	g.mixID[key] = id
	return id
}

// judge replays the path to terminal state i and reports whether a
// property fails at the end of that run.
func (g *graph) judge(i int32) (bool, error) {
	if g.x.cfg.Checks == nil {
		return false, nil
	}
	var path []statespace.Trans
	for k := i; g.parent[k] >= 0; k = g.parent[k] {
		path = append(path, g.via[k])
	}
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	set := check.NewSet(g.x.cfg.Checks()...)
	rr, _, err := g.x.m.Replay(path, func(e *trace.Event) { set.Observe(e) })
	if err != nil {
		return false, err
	}
	for _, v := range set.Finish(check.End{Terminated: rr.Terminated, Messages: rr.Messages}) {
		if !v.OK {
			return true, nil
		}
	}
	return false, nil
}

// preds is the reverse of the graph's edges, one entry per edge.
func (g *graph) preds() [][]int32 {
	ps := make([][]int32, len(g.succ))
	for from, es := range g.succ {
		for _, e := range es {
			ps[e.to] = append(ps[e.to], int32(from))
		}
	}
	return ps
}

// fates computes every state's Fate by two backward passes. Reachable:
// the states that can reach a violation. Unavoidable, the least fixed
// point: a violation, or a state with successors that are all unavoidable
// (counted edge by edge). A terminal state that is no violation, or a
// cycle that avoids every violation, keeps a state out of it. dist is,
// by state, the fewest steps to a violation (-1: none); past, whether it
// can reach a state beyond the state constraint.
func (g *graph) fates() (fs []Fate, dist []int32, past []bool) {
	n := len(g.succ)
	ps := g.preds()
	dist = nearest(ps, g.bad)
	unavoid := make([]bool, n)
	left := make([]int, n)
	var work []int32
	for i := range n {
		left[i] = len(g.succ[i])
		if g.bad[i] {
			unavoid[i] = true
			work = append(work, int32(i))
		}
	}
	reach := reaching(ps, g.bad)
	for q := work; len(q) > 0; {
		i := q[len(q)-1]
		q = q[:len(q)-1]
		for _, p := range ps[i] {
			if unavoid[p] {
				continue
			}
			left[p]--
			if left[p] == 0 {
				unavoid[p] = true
				q = append(q, p)
			}
		}
	}
	past = reaching(ps, g.beyond)
	fs = make([]Fate, n)
	for i := range n {
		switch {
		case unavoid[i]:
			fs[i] = Unavoidable
		case reach[i]:
			fs[i] = Reachable
		case past[i]:
			fs[i] = Undecided
		default:
			fs[i] = Safe
		}
	}
	return fs, dist, past
}

// nearest is, by state, the fewest steps from it to one marked in from (0
// for those, -1 for a state that reaches none): a breadth-first search
// backwards over ps.
func nearest(ps [][]int32, from []bool) []int32 {
	dist := make([]int32, len(ps))
	var q []int32
	for i, b := range from {
		dist[i] = -1
		if b {
			dist[i] = 0
			q = append(q, int32(i))
		}
	}
	for k := 0; k < len(q); k++ {
		i := q[k]
		for _, p := range ps[i] {
			if dist[p] < 0 {
				dist[p] = dist[i] + 1
				q = append(q, p)
			}
		}
	}
	return dist
}

// reaching marks the states that can reach one marked in from: from
// itself and every predecessor (ps) of a state marked, backwards.
func reaching(ps [][]int32, from []bool) []bool {
	marked := slices.Clone(from)
	var q []int32
	for i, b := range from {
		if b {
			q = append(q, int32(i))
		}
	}
	for len(q) > 0 {
		i := q[len(q)-1]
		q = q[:len(q)-1]
		for _, p := range ps[i] {
			if !marked[p] {
				marked[p] = true
				q = append(q, p)
			}
		}
	}
	return marked
}

// messages computes, for every state, the fewest messages on a path to an
// end (a state with no successor: terminal, or a violation) by Dijkstra's
// algorithm backwards from the ends, and the most, over the graph's
// strongly connected components in reverse topological order: a component
// that holds an edge that sends, and every state that can reach one, can
// send for ever (statespace.Unbounded). A state that reaches no end has min
// statespace.Unbounded.
//
// weight, if set, counts an edge's messages in place of edge.sent (the
// messages of one type).
func (g *graph) messages(weight func(e edge) int32) (min, max []int64) {
	n := len(g.succ)
	if weight == nil {
		weight = func(e edge) int32 { return e.sent }
	}
	ps := make([][]edge, n) // reverse edges with their weights
	for from, es := range g.succ {
		for _, e := range es {
			ps[e.to] = append(ps[e.to], edge{to: int32(from), sent: weight(e)})
		}
	}
	min = make([]int64, n)
	h := &distHeap{}
	for i := range n {
		min[i] = statespace.Unbounded
		if len(g.succ[i]) == 0 {
			min[i] = 0
			heap.Push(h, dist{int32(i), 0})
		}
	}
	for h.Len() > 0 {
		d := heap.Pop(h).(dist)
		if d.d > min[d.i] {
			continue
		}
		for _, e := range ps[d.i] {
			if nd := d.d + int64(e.sent); nd < min[e.to] {
				min[e.to] = nd
				heap.Push(h, dist{e.to, nd})
			}
		}
	}
	comp, order := g.components(nil)
	max = make([]int64, n)
	cmax := make([]int64, len(order))
	for _, c := range order { // sinks first
		best := int64(0)
		for _, i := range c.members {
			for _, e := range g.succ[i] {
				switch {
				case comp[e.to] == comp[i]:
					if weight(e) > 0 {
						best = statespace.Unbounded
					}
				case cmax[comp[e.to]] == statespace.Unbounded:
					best = statespace.Unbounded
				case best != statespace.Unbounded:
					best = maxInt64(best, cmax[comp[e.to]]+int64(weight(e)))
				}
			}
		}
		cmax[c.id] = best
	}
	for i := range n {
		max[i] = cmax[comp[i]]
	}
	return min, max
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

type dist struct {
	i int32
	d int64
}

type distHeap []dist

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(a, b int) bool { return h[a].d < h[b].d }
func (h distHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(dist)) }
func (h *distHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// component is one strongly connected component of the graph.
type component struct {
	id      int32
	members []int32
}

// components finds the strongly connected components (scc.Components): comp
// maps a state to its component, and order lists the components sinks
// first. use, if set, restricts the graph to the edges it accepts.
func (g *graph) components(use func(from int32, e edge) bool) (comp []int32, order []component) {
	comp = make([]int32, len(g.succ))
	out := func(v int32) int32 { return int32(len(g.succ[v])) }
	head := func(v, k int32) (int32, bool) {
		e := g.succ[v][k]
		return e.to, use == nil || use(v, e)
	}
	scc.Components(len(g.succ), nil, out, head, func(members []int32) {
		c := component{id: int32(len(order)), members: slices.Clone(members)}
		for _, w := range members {
			comp[w] = c.id
		}
		order = append(order, c)
	})
	return comp, order
}
