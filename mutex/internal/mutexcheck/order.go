package mutexcheck

import (
	"fmt"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Key orders requests: lower first.
type Key [2]int64

func (k Key) String() string { return fmt.Sprintf("(%d, %d)", k[0], k[1]) }

func (k Key) less(l Key) bool { return k[0] < l[0] || k[0] == l[0] && k[1] < l[1] }

// KeyFunc reads from one event that node `node` has registered a request
// with key k (the request's (timestamp, id) on its REQUEST message, say).
// Only the first registration of an outstanding request counts.
type KeyFunc func(e *trace.Event) (node int, k Key, ok bool)

// RequestTime keys a request by the time and order of its "cmd request"
// event: first asked, first served.
func RequestTime() KeyFunc {
	var seq int64
	return func(e *trace.Event) (int, Key, bool) {
		if e.Kind != trace.KindCmd || !IsRequest(e.Cmd) {
			return 0, Key{}, false
		}
		seq++
		return e.Node, Key{e.T, seq}, true
	}
}

// GrantOrder compares the order of grants with the order of requests: a
// grant to a node while another live node waits with a lower key is an
// overtaking. With Strict, an overtaking is a violation (the algorithm
// promises that order, as Ricart-Agrawala and Lamport promise timestamp
// order and the central coordinator its queue's); without, the verdict only
// counts them (the token ring serves in ring order, and promises none).
type GrantOrder struct {
	check.Names
	check.Times
	Key     KeyFunc
	Strict  bool
	Promise string // the order, for the verdict: "(timestamp, id) order"

	pending map[int]Key
	crashed map[int]bool
	grants  int
	over    int
}

// Property names the checked property.
func (*GrantOrder) ID() check.ID { return IDGrantOrder }

// Observe registers requests and judges every grant.
func (g *GrantOrder) Observe(e *trace.Event) string {
	if g.pending == nil {
		g.pending, g.crashed = map[int]Key{}, map[int]bool{}
	}
	if i, k, ok := g.Key(e); ok {
		if _, has := g.pending[i]; !has && !g.crashed[i] {
			g.pending[i] = k
		}
	}
	switch e.Kind {
	case trace.KindCrash:
		g.crashed[e.Node] = true
		delete(g.pending, e.Node)
	case trace.KindRecover:
		delete(g.crashed, e.Node)
	case trace.KindEnterCS:
		k, has := g.pending[e.Node]
		delete(g.pending, e.Node)
		g.grants++
		if !has {
			return ""
		}
		ahead := g.earlier(k)
		if len(ahead) == 0 {
			return ""
		}
		g.over++
		if g.Strict {
			j := ahead[0]
			return fmt.Sprintf("%s entered with request %v while %s waited with the earlier %v (t=%s)",
				g.Name(e.Node), k, g.Name(j), g.pending[j], g.Time(e.T))
		}
	}
	return ""
}

// earlier lists the waiting nodes whose keys are below k, lowest first.
func (g *GrantOrder) earlier(k Key) []int {
	var ns []int
	for j, kj := range g.pending {
		if kj.less(k) {
			ns = append(ns, j)
		}
	}
	slices.SortFunc(ns, func(a, b int) int {
		if g.pending[a].less(g.pending[b]) {
			return -1
		}
		return 1
	})
	return ns
}

// Finish gives the verdict: with Strict, no overtaking; otherwise always
// OK, with the count of overtakings as information.
func (g *GrantOrder) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(g.ID()), OK: !g.Strict || g.over == 0}
	switch {
	case g.Strict && g.over == 0:
		v.Detail = fmt.Sprintf("%d grants, all in %s", g.grants, g.Promise)
	case g.Strict:
		v.Detail = fmt.Sprintf("%d of %d grants overtook an earlier request, against %s", g.over, g.grants, g.Promise)
	default:
		v.Detail = fmt.Sprintf("%d of %d grants overtook an earlier request (%s; no order is promised)", g.over, g.grants, g.Promise)
	}
	return v
}
