package statespace

import "slices"

// Extremes is the fewest and the most messages a complete run sends, over
// every schedule from the initial state, each with a path that attains it
// (a shortest one among those). A run ends in a terminal state or where a
// violation stops it.
type Extremes struct {
	Fewest, Most         int64   // messages; Most is Unbounded when a cycle sends
	FewestPath, MostPath []Trans // nil MostPath when Most is Unbounded
}

// Extremes returns the fewest and most messages over every schedule from
// the initial state, with paths that attain them; ok is false when no run
// ends.
func (f *Fates) Extremes() (e Extremes, ok bool) {
	if len(f.min) == 0 || f.min[0] == Unbounded {
		return e, false
	}
	e.Fewest, e.Most = f.min[0], f.max[0]
	e.FewestPath = f.tightPath(f.min)
	if e.Most != Unbounded {
		e.MostPath = f.tightPath(f.max)
	}
	return e, true
}

// tightPath is a shortest path from the initial state to a state with no
// successor along edges that keep the bound: from a state i, an edge that
// sends s to a state j with s + bound[j] = bound[i]. Every state on it
// has a finite bound, and the messages along the path add up to bound[0]:
// the backward passes that computed bound guarantee such an edge out of
// every state with a successor (for the most messages: within a strongly
// connected component every edge sends nothing and keeps the bound, and
// some member has an edge out that does).
func (f *Fates) tightPath(bound []int64) []Trans {
	n := len(f.succ)
	from := make([]int32, n)
	via := make([]Trans, n)
	for i := range from {
		from[i] = -2
	}
	from[0] = -1
	queue := []int32{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if len(f.succ[i]) == 0 {
			var p []Trans
			for ; from[i] >= 0; i = from[i] {
				p = append(p, via[i])
			}
			slices.Reverse(p)
			return p
		}
		for _, e := range f.succ[i] {
			if from[e.to] != -2 || bound[e.to] == Unbounded || int64(e.sent)+bound[e.to] != bound[i] {
				continue
			}
			from[e.to], via[e.to] = i, e.t
			queue = append(queue, e.to)
		}
	}
	return nil
}
