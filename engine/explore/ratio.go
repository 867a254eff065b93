package explore

import (
	"math/bits"
	"slices"

	"ringlab/engine/statespace"
)

// perEntryLimit bounds the graphs whose messages per entry over cycles
// are computed: each step of the search below is a Bellman-Ford pass.
const perEntryLimit = 200_000

// cycEdge is one edge of a cycle: the k-th edge out of state from.
type cycEdge struct {
	from int32
	k    int32
}

// entries is the number of promises step e kept.
func (g *graph) entries(e edge) int64 { return int64(bits.OnesCount64(g.kept(e))) }

// perEntry computes the least and the greatest ratio messages/entries
// over the cycles with an entry, exactly, by a descent on the ratio: for
// a candidate p/q, a cycle with q*sent - p*entries < 0 (a negative cycle,
// found by Bellman-Ford) has a smaller ratio, which becomes the next
// candidate; when no cycle is negative the candidate is the least. The
// candidates strictly decrease over the finitely many simple cycles, so
// the descent ends. The greatest is the same with the signs turned,
// after a check that no cycle sends without an entry (statespace.Unbounded). nil
// when no cycle keeps a promise or the graph is over perEntryLimit.
func (g *graph) perEntry() *PerEntry {
	n := len(g.succ)
	if n > perEntryLimit {
		return nil
	}
	comp, _ := g.components(nil)
	var total int64
	cyclic := false
	for v, es := range g.succ {
		for _, e := range es {
			total += int64(e.sent)
			cyclic = cyclic || comp[e.to] == comp[v] && g.entries(e) > 0
		}
	}
	if !cyclic {
		return nil
	}
	pe := &PerEntry{}
	p, q := total+1, int64(1)
	var fewest []cycEdge
	for {
		c := g.negCycle(func(e edge) int64 { return q*int64(e.sent) - p*g.entries(e) })
		if c == nil {
			break
		}
		fewest = c
		p, q = g.ratio(c)
	}
	pe.FewestMsgs, pe.FewestEntries = p, q
	pe.FewestPrefix, pe.FewestCycle = g.lassoOf(fewest)

	// a cycle that sends and keeps nothing: messages per entry unbounded
	none := func(_ int32, e edge) bool { return g.entries(e) == 0 }
	zc, _ := g.components(none)
	for v, es := range g.succ {
		for _, e := range es {
			if g.entries(e) == 0 && e.sent > 0 && zc[e.to] == zc[v] {
				pe.MostMsgs, pe.MostEntries = statespace.Unbounded, 0
				return pe
			}
		}
	}
	p, q = 0, 1
	most := fewest
	mp, mq := pe.FewestMsgs, pe.FewestEntries
	for {
		c := g.negCycle(func(e edge) int64 { return p*g.entries(e) - q*int64(e.sent) })
		if c == nil {
			break
		}
		most = c
		p, q = g.ratio(c)
		mp, mq = p, q
	}
	pe.MostMsgs, pe.MostEntries = mp, mq
	pe.MostPrefix, pe.MostCycle = g.lassoOf(most)
	return pe
}

// ratio is the messages and the entries of cycle c, divided by their
// greatest common divisor.
func (g *graph) ratio(c []cycEdge) (msgs, ents int64) {
	for _, ce := range c {
		e := g.succ[ce.from][ce.k]
		msgs += int64(e.sent)
		ents += g.entries(e)
	}
	a, b := msgs, ents
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return msgs, ents
	}
	return msgs / a, ents / a
}

// lassoOf is a shortest path to cycle c's state nearest the initial
// state, and the cycle from there.
func (g *graph) lassoOf(c []cycEdge) (prefix, cycle []statespace.Trans) {
	at := 0
	for k, ce := range c {
		if ce.from < c[at].from {
			at = k
		}
	}
	for k := range c {
		ce := c[(at+k)%len(c)]
		cycle = append(cycle, g.succ[ce.from][ce.k].t)
	}
	return g.pathTo(c[at].from), cycle
}

// negCycle is a cycle whose weights (w) add up to less than zero, or nil:
// Bellman-Ford from a virtual source joined to every state, checking after
// each round whether the predecessor graph has a cycle (any cycle there
// is negative) and stopping when a round changes nothing.
func (g *graph) negCycle(w func(edge) int64) []cycEdge {
	n := len(g.succ)
	dist := make([]int64, n)
	pred := make([]cycEdge, n)
	for i := range pred {
		pred[i].from = -1
	}
	mark := make([]int32, n) // the walk that last passed a state (0: none)
	for {
		changed := false
		for v, es := range g.succ {
			for k, e := range es {
				if d := dist[v] + w(e); d < dist[e.to] {
					dist[e.to] = d
					pred[e.to] = cycEdge{from: int32(v), k: int32(k)}
					changed = true
				}
			}
		}
		if !changed {
			return nil
		}
		if c := predCycle(pred, mark); c != nil {
			return c
		}
	}
}

// predCycle finds a cycle of the predecessor graph pred, walking back from
// every state; mark is scratch: per state, the walk that passed it.
func predCycle(pred []cycEdge, mark []int32) []cycEdge {
	n := int32(len(pred))
	clear(mark)
	for s := range n {
		if mark[s] != 0 {
			continue
		}
		id := s + 1
		v := s
		for v >= 0 && mark[v] == 0 {
			mark[v] = id
			v = pred[v].from
		}
		if v < 0 || mark[v] != id {
			continue
		}
		var c []cycEdge // v is on a cycle of this walk
		for u := v; ; {
			c = append(c, pred[u])
			u = pred[u].from
			if u == v {
				break
			}
		}
		slices.Reverse(c)
		return c
	}
	return nil
}
