package explore

import (
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
)

// Extremes is what is worst and best over every schedule from the initial
// state, each figure with a path that attains it (a shortest one among
// those): the fewest and the most messages a complete run sends, in total
// and by message type, the most messages in flight at once, and the
// longest wait. A run ends in a terminal state or where a violation stops
// it.
type Extremes struct {
	// Ends is false when no run ends (an infinite workload): the totals
	// are then not defined and stay zero; the other figures hold.
	Ends                 bool
	Fewest, Most         int64              // messages; Most is statespace.Unbounded when a cycle sends
	FewestPath, MostPath []statespace.Trans // nil MostPath when Most is statespace.Unbounded
	// ByType is the same by message type, in order of type name; a type
	// no run sends is not listed.
	ByType []TypeExtremes
	// InFlight is the most messages in flight in any reachable state,
	// InFlightPath a shortest path to such a state; OnLink the most on
	// one link From -> To, OnLinkPath a shortest path there.
	InFlight         int
	InFlightPath     []statespace.Trans
	OnLink, From, To int
	OnLinkPath       []statespace.Trans
	// Wait is the longest wait, when the system makes promises
	// (check.Eventually under statespace.Config.Liveness); nil otherwise.
	Wait *Wait
}

// TypeExtremes is the fewest and most messages of one type a complete run
// sends, over every schedule, each with a shortest path that attains it.
type TypeExtremes struct {
	Type                 string             // the message type's name (node.Msg's Type)
	Fewest, Most         int64              // Most is statespace.Unbounded when a cycle sends the type
	FewestPath, MostPath []statespace.Trans // nil MostPath when Most is statespace.Unbounded
}

// Wait is the longest wait over every schedule: the most promises of the
// same check.Eventually property kept to other nodes (entries by others,
// for a mutual exclusion's "every request is granted") while the promise
// to Node stays owed, reached by Path. Path ends where the wait's last
// overtaking entry is made; its wait begins after Start steps (the step
// that made the promise, or the initial state). Most is statespace.Unbounded when a
// cycle overtakes (fair or not): Path is then nil.
type Wait struct {
	Property check.ID           // the check.Eventually property
	Node     int                // the waiting node
	Most     int64              // promises kept to others while it waits, or statespace.Unbounded
	Start    int                // the steps of Path before the wait begins
	Path     []statespace.Trans // from the initial state to the last overtaking step
}

// extra is what Analyze computes for Extremes beyond the totals.
type extra struct {
	byType           []TypeExtremes
	inFlight, onLink int
	from, to         int
	inFlightPath     []statespace.Trans
	onLinkPath       []statespace.Trans
	wait             *Wait
	perEntry         *PerEntry
}

// Extremes returns the extremes over every schedule from the initial
// state, with paths that attain them; ok is false when no run ends (then
// only the figures in flight and the wait are set). After Analyze only
// the totals are set; AnalyzeExtremes sets every figure.
func (f *Fates) Extremes() (e Extremes, ok bool) {
	if len(f.min) == 0 {
		return e, false
	}
	x := f.ext
	e.ByType, e.Wait = x.byType, x.wait
	e.InFlight, e.InFlightPath, e.OnLink, e.From, e.To, e.OnLinkPath = x.inFlight, x.inFlightPath, x.onLink, x.from, x.to, x.onLinkPath
	if f.min[0] == statespace.Unbounded {
		return e, false
	}
	e.Ends = true
	e.Fewest, e.Most = f.min[0], f.max[0]
	e.FewestPath = tightPath(f.succ, f.min, nil)
	if e.Most != statespace.Unbounded {
		e.MostPath = tightPath(f.succ, f.max, nil)
	}
	return e, true
}

// extremes computes the figures of extra over the whole graph.
func (g *graph) extremes() extra {
	var x extra
	n := len(g.succ)
	if n == 0 {
		return x
	}
	bi, li := 0, 0
	for i := range n { // states are numbered breadth first: the first is nearest
		if g.flight[i] > g.flight[bi] {
			bi = i
		}
		if g.onLink[i] > g.onLink[li] {
			li = i
		}
	}
	x.inFlight, x.onLink = int(g.flight[bi]), int(g.onLink[li])
	x.inFlightPath, x.onLinkPath = g.pathTo(int32(bi)), g.pathTo(int32(li))
	if x.onLink > 0 {
		x.from, x.to = int(g.link[li][0]), int(g.link[li][1])
	}
	if g.min0() {
		for k, ty := range g.types {
			w := func(e edge) int32 {
				if c := g.mixes[g.infos[e.info].mix]; k < len(c) {
					return c[k]
				}
				return 0
			}
			lo, hi := g.messages(w)
			te := TypeExtremes{Type: ty, Fewest: lo[0], Most: hi[0], FewestPath: tightPath(g.succ, lo, w)}
			if te.Most != statespace.Unbounded {
				te.MostPath = tightPath(g.succ, hi, w)
			}
			x.byType = append(x.byType, te)
		}
		slices.SortFunc(x.byType, func(a, b TypeExtremes) int {
			if a.Type < b.Type {
				return -1
			}
			return 1
		})
	}
	x.wait = g.longestWait()
	x.perEntry = g.perEntry()
	return x
}

// min0 reports whether some run from the initial state ends.
func (g *graph) min0() bool {
	seen := make([]bool, len(g.succ))
	q := []int32{0}
	seen[0] = true
	for len(q) > 0 {
		i := q[len(q)-1]
		q = q[:len(q)-1]
		if len(g.succ[i]) == 0 {
			return true
		}
		for _, e := range g.succ[i] {
			if !seen[e.to] {
				seen[e.to] = true
				q = append(q, e.to)
			}
		}
	}
	return false
}

// pathTo is the path by which the breadth-first numbering first reached
// state i: a shortest one.
func (g *graph) pathTo(i int32) []statespace.Trans {
	var p []statespace.Trans
	for ; g.parent[i] >= 0; i = g.parent[i] {
		p = append(p, g.via[i])
	}
	slices.Reverse(p)
	return p
}

// longestWait finds, for every promise some state owes, the most promises
// of the same property to other nodes kept while it stays owed, over
// every path of the graph, and returns the worst (the first promise on a
// tie), with a path that attains it; nil when no state owes a promise.
//
// For promise b the graph is restricted to the states that owe it and
// the steps between them that do not keep it; a step that keeps another
// node's promise of the same property weighs 1. The most weight from a
// state on is computed over the restricted graph's strongly connected
// components, sinks first; a component with a step of weight 1 inside
// makes it statespace.Unbounded.
func (g *graph) longestWait() *Wait {
	var any uint64
	for _, o := range g.owed {
		any |= o
	}
	if any == 0 {
		return nil
	}
	var worst *Wait
	for b := range 64 {
		bit := uint64(1) << b
		if any&bit == 0 {
			continue
		}
		p, ok := g.x.m.Promise(b)
		if !ok || p.Node == 0 { // a promise to the run: nobody waits for it
			continue
		}
		var others uint64 // the promises of the same property to the others
		for c := range 64 {
			if q, ok := g.x.m.Promise(c); ok && q.K == p.K && c != b {
				others |= 1 << c
			}
		}
		use := func(from int32, e edge) bool {
			return g.owed[from]&bit != 0 && g.owed[e.to]&bit != 0 && g.kept(e)&bit == 0
		}
		over := func(e edge) int64 {
			if g.kept(e)&others != 0 {
				return 1
			}
			return 0
		}
		comp, order := g.components(use)
		most := make([]int64, len(g.succ))
		cmost := make([]int64, len(order))
		for _, c := range order {
			m := int64(0)
			for _, v := range c.members {
				if g.owed[v]&bit == 0 {
					continue
				}
				for _, e := range g.succ[v] {
					if !use(v, e) {
						continue
					}
					switch {
					case comp[e.to] == c.id && over(e) > 0:
						m = statespace.Unbounded
					case comp[e.to] == c.id:
					case cmost[comp[e.to]] == statespace.Unbounded:
						m = statespace.Unbounded
					case m != statespace.Unbounded:
						m = max(m, cmost[comp[e.to]]+over(e))
					}
				}
			}
			cmost[c.id] = m
		}
		best := int32(-1)
		for v := range most {
			most[v] = cmost[comp[v]]
			if g.owed[v]&bit != 0 && (best < 0 || most[v] > most[best]) {
				best = int32(v)
			}
		}
		if worst != nil && most[best] <= worst.Most {
			continue
		}
		w := &Wait{Property: p.Property, Node: p.Node, Most: most[best]}
		if w.Most != statespace.Unbounded {
			w.Path = g.pathTo(best)
			w.Start = len(w.Path)
			w.Path = append(w.Path, g.overtakes(best, most, use, over)...)
		}
		worst = w
	}
	return worst
}

// overtakes is a shortest path from state v along the restricted graph
// (use) whose steps keep the bound most (a step e from u to w with
// over(e) + most[w] = most[u]) to a state whose bound is 0: it overtakes
// most[v] times.
func (g *graph) overtakes(v int32, most []int64, use func(int32, edge) bool, over func(edge) int64) []statespace.Trans {
	from := map[int32]int32{v: -1}
	via := map[int32]statespace.Trans{}
	q := []int32{v}
	for len(q) > 0 {
		i := q[0]
		q = q[1:]
		if most[i] == 0 {
			var p []statespace.Trans
			for ; from[i] >= 0; i = from[i] {
				p = append(p, via[i])
			}
			slices.Reverse(p)
			return p
		}
		for _, e := range g.succ[i] {
			if _, seen := from[e.to]; seen || !use(i, e) || over(e)+most[e.to] != most[i] {
				continue
			}
			from[e.to], via[e.to] = i, e.t
			q = append(q, e.to)
		}
	}
	return nil
}

// tightPath is a shortest path from the initial state to a state with no
// successor along edges that keep the bound: from a state i, an edge that
// sends s to a state j with s + bound[j] = bound[i]. Every state on it
// has a finite bound, and the messages along the path add up to bound[0]:
// the backward passes that computed bound guarantee such an edge out of
// every state with a successor (for the most messages: within a strongly
// connected component every edge sends nothing and keeps the bound, and
// some member has an edge out that does). weight, if set, counts an
// edge's messages in place of edge.sent.
func tightPath(succ [][]edge, bound []int64, weight func(edge) int32) []statespace.Trans {
	if weight == nil {
		weight = func(e edge) int32 { return e.sent }
	}
	n := len(succ)
	from := make([]int32, n)
	via := make([]statespace.Trans, n)
	for i := range from {
		from[i] = -2
	}
	from[0] = -1
	queue := []int32{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if len(succ[i]) == 0 {
			var p []statespace.Trans
			for ; from[i] >= 0; i = from[i] {
				p = append(p, via[i])
			}
			slices.Reverse(p)
			return p
		}
		for _, e := range succ[i] {
			if from[e.to] != -2 || bound[e.to] == statespace.Unbounded || int64(weight(e))+bound[e.to] != bound[i] {
				continue
			}
			from[e.to], via[e.to] = i, e.t
			queue = append(queue, e.to)
		}
	}
	return nil
}

// PerEntry is the fewest and most messages per entry over the cycles of
// the state graph, for an infinite workload: over every cycle that keeps
// at least one promise (an entry, for a mutual exclusion), its messages
// sent divided by the promises it keeps, each as an exact fraction with a
// cycle that attains it. Every cycle counts, fair or not. Most is
// statespace.Unbounded (MostCycle nil) when a cycle sends messages and keeps no
// promise.
type PerEntry struct {
	FewestMsgs, FewestEntries int64              // the least ratio, FewestMsgs/FewestEntries
	MostMsgs, MostEntries     int64              // the greatest ratio; MostMsgs is statespace.Unbounded as said
	FewestPrefix, FewestCycle []statespace.Trans // a shortest path to a cycle that attains the least, and the cycle
	MostPrefix, MostCycle     []statespace.Trans // the same for the greatest (nil when statespace.Unbounded)
}

// PerEntry returns the messages per entry over the graph's cycles
// (after AnalyzeExtremes); ok is false when no cycle keeps a promise (or
// the system makes none), or after Analyze.
func (f *Fates) PerEntry() (PerEntry, bool) {
	if f.ext.perEntry == nil {
		return PerEntry{}, false
	}
	return *f.ext.perEntry, true
}
