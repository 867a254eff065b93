package kit

import (
	"fmt"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Key orders requests: lower first.
type Key [2]int64

// String writes the key as "(t, id)".
func (k Key) String() string { return fmt.Sprintf("(%d, %d)", k[0], k[1]) }

func (k Key) less(l Key) bool { return k[0] < l[0] || k[0] == l[0] && k[1] < l[1] }

// KeyFunc reads from one event that node `node` has registered a request
// with key k (the request's (timestamp, id) on its REQUEST message, say).
// Only the first registration of an outstanding request counts. A KeyFunc
// keeps no state: it is shared by every copy of its GrantOrder.
type KeyFunc func(e *trace.Event) (node int, k Key, ok bool)

// Order is how a GrantOrder keys requests.
type Order struct {
	Key   KeyFunc     // reads a registration from an event
	Kinds trace.Kinds // the kinds of event Key reads (0: any)
	// Arrival says that requests are served in the order they register:
	// Key gives the time of a registration, Key{t, 0}, and GrantOrder
	// numbers the registrations itself, Key{t, n} for the n-th event Key
	// reads. Only the order of the waiting requests then matters, and that
	// is what the exhaustive checker keys. Otherwise a key is a timestamp
	// a node made, (timestamp, id), keyed as it is and shifted and
	// renumbered with the nodes' clocks.
	Arrival bool
}

// RequestTime keys a request by the time and order of its "cmd request"
// event: first asked, first served.
func RequestTime() Order {
	return Order{Kinds: trace.KindsOf(trace.KindCmd), Arrival: true, Key: func(e *trace.Event) (int, Key, bool) {
		if e.Kind != trace.KindCmd || !IsRequest(e.Cmd) {
			return 0, Key{}, false
		}
		return e.Node, Key{e.T, 0}, true
	}}
}

// GrantOrder compares the order of grants with the order of requests: a
// grant to a node while another live node waits with a lower key is an
// overtaking. With Strict, an overtaking is a violation (the algorithm
// promises that order, as Ricart-Agrawala and Lamport promise timestamp
// order and the central coordinator its queue's); without, the verdict only
// counts them (the token ring serves in ring order, and promises none).
//
// A GrantOrder is a check.Snapshot: the exhaustive checker carries the
// waiting requests in every state and so judges the grant order on every
// path, not only on one path to each state. It is check.OrderDependent:
// who waits when a node enters depends on the order of steps at different
// nodes. A GrantOrder that is not Strict reports nothing; Counted hides it
// from the checker's states.
type GrantOrder struct {
	check.Names
	check.Times
	Order
	Strict  bool   // the order is a promise: an overtaking is a violation
	Promise string // the order, for the verdict: "(timestamp, id) order"

	pending []waiting     // sorted by node; never changed in place (add, remove), so clones share it
	crashed check.NodeSet // crashed nodes: they register nothing
	seq     int64         // registrations numbered (Arrival)
	grants  int
	over    int
}

// waiting is a node's outstanding request and its key.
type waiting struct {
	node int
	key  Key
}

// ID names the checked property.
func (*GrantOrder) ID() check.ID { return IDGrantOrder }

// Wants returns the kinds that register a request (Order.Kinds) and those
// that end one: enter_cs, crash and recover.
func (g *GrantOrder) Wants() trace.Kinds {
	if g.Kinds == 0 {
		return trace.AllKinds
	}
	return g.Kinds | trace.KindsOf(trace.KindEnterCS, trace.KindCrash, trace.KindRecover)
}

// Observe registers requests and judges every grant.
func (g *GrantOrder) Observe(e *trace.Event) string {
	if i, k, ok := g.Key(e); ok {
		if g.Arrival {
			g.seq++
			k[1] = g.seq
		}
		if _, has := g.find(i); !has && !g.crashed.Has(i) {
			g.add(i, k)
		}
	}
	switch e.Kind {
	case trace.KindCrash:
		g.crashed.Add(e.Node)
		g.remove(e.Node)
	case trace.KindRecover:
		g.crashed.Remove(e.Node)
	case trace.KindEnterCS:
		k, has := g.find(e.Node)
		g.remove(e.Node)
		g.grants++
		if !has {
			return ""
		}
		j, kj, ahead := g.earliest(k)
		if !ahead {
			return ""
		}
		g.over++
		if g.Strict {
			return fmt.Sprintf("%s entered with request %v while %s waited with the earlier %v (t=%s)",
				g.Name(e.Node), k, g.Name(j), kj, g.Time(e.T))
		}
	}
	return ""
}

// find returns node i's outstanding key.
func (g *GrantOrder) find(i int) (Key, bool) {
	k, ok := slices.BinarySearchFunc(g.pending, i, func(w waiting, i int) int { return w.node - i })
	if !ok {
		return Key{}, false
	}
	return g.pending[k].key, true
}

func (g *GrantOrder) add(i int, k Key) {
	at, _ := slices.BinarySearchFunc(g.pending, i, func(w waiting, i int) int { return w.node - i })
	g.pending = slices.Concat(g.pending[:at], []waiting{{i, k}}, g.pending[at:])
}

func (g *GrantOrder) remove(i int) {
	if at, ok := slices.BinarySearchFunc(g.pending, i, func(w waiting, i int) int { return w.node - i }); ok {
		g.pending = slices.Delete(slices.Clone(g.pending), at, at+1)
	}
}

// before reports whether key a comes before key b: with Arrival by the
// registrations' numbers alone (their times only name them: the
// exhaustive checker's states share a GrantOrder between paths that
// reached one at different times), otherwise as Key orders them.
func (g *GrantOrder) before(a, b Key) bool {
	if g.Arrival {
		return a[1] < b[1]
	}
	return a.less(b)
}

// earliest returns the waiting node with the lowest key below k, if any.
func (g *GrantOrder) earliest(k Key) (int, Key, bool) {
	j, kj, ok := 0, Key{}, false
	for _, w := range g.pending {
		if g.before(w.key, k) && (!ok || g.before(w.key, kj)) {
			j, kj, ok = w.node, w.key, true
		}
	}
	return j, kj, ok
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
