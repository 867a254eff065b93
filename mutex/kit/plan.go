package kit

import (
	"cmp"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
)

// Kind is the kind of a mutual-exclusion algorithm, which decides the
// properties it is judged by beside the ones every kind gets.
type Kind uint8

const (
	// Permission is an algorithm whose nodes enter with others'
	// permission: a coordinator's, every peer's (Ricart-Agrawala,
	// Lamport), a quorum's (Maekawa, the quorum of coordinators).
	Permission Kind = iota + 1
	// Token is an algorithm where holding the one token is the
	// permission (the token ring): it is also judged by "one token".
	Token
)

// Plan is one build of a mutual-exclusion algorithm, for given parameters:
// its nodes, who asks for the critical section and the order it promises.
// The kit makes of it a System with the workload and the properties (see
// Plan.System).
type Plan struct {
	Kind     Kind         // which properties beside every kind's
	Nodes    int          // nodes 1..Nodes
	Factory  node.Factory // builds node i; its nodes must never report Done (see Algorithm)
	Messages []node.Msg   // one value of every message type the nodes send
	// Requesters are the nodes that run the workload (nil: every node).
	Requesters []int
	// Start are actions before any request (the token ring's node 1
	// creating the token).
	Start []node.Action
	// Order is how the grant order keys requests (zero: RequestTime,
	// first asked, first served), and Promise its name for the verdict
	// ("(timestamp, id) order"; "": "request order"). With Strict the
	// algorithm promises that order: an overtaking is a violation;
	// without, the verdict counts them.
	Order   Order
	Strict  bool
	Promise string
	// TokenType is the token's message type (Token; "": Messages[0]'s);
	// with Regen a lost token is regenerated, and a check without end
	// judges that eventually one token is left.
	TokenType string
	Regen     bool
	// Symmetry is the renamings of the nodes the algorithm behaves alike
	// under (engine.Symmetry), nil if none; the kit keeps it only for a
	// workload that treats those nodes alike.
	Symmetry *engine.Symmetry
	// Infinite says why a check without end (--requests 0) has an
	// infinite space ("": it may not): such a check is refused without
	// --max-depth or --max-flight. Unexhausted says why one is refused
	// without --max-depth although its space is not known to be infinite.
	Infinite, Unexhausted string
	// Names, Topology and Edges are the System's (nil, "": "node i" on a
	// complete graph); Theory is the messages per entry in theory, which
	// an exhaustive check prints beside the exact figures ("2(N-1) = 4").
	Names    func(int) string
	Topology string
	Edges    [][2]int
	Theory   string
	// Dress, if set, completes every System the kit builds of the plan
	// with what is the algorithm's own: goals, figures.
	Dress func(sys *engine.System)
}

// requesters is Requesters, or every node.
func (pl Plan) requesters() []int {
	if pl.Requesters != nil {
		return pl.Requesters
	}
	all := make([]int, pl.Nodes)
	for k := range all {
		all[k] = k + 1
	}
	return all
}

// tokenType is the token's message type.
func (pl Plan) tokenType() string {
	if pl.TokenType == "" && len(pl.Messages) > 0 {
		return pl.Messages[0].Type()
	}
	return pl.TokenType
}

// Properties are the verdicts of every run of pl, safety first so that
// a run's exit code names a safety violation before a liveness failure:
// mutual exclusion, one token (Token), the grant order, no deadlock, no
// starvation and termination.
func (pl Plan) Properties() []check.Property {
	ps := []check.Property{&check.MutualExclusion{}}
	if pl.Kind == Token {
		ps = append(ps, &OneToken{Type: pl.tokenType()})
	}
	order, promise := pl.Order, cmp.Or(pl.Promise, "request order")
	if order.Key == nil {
		order = RequestTime()
	}
	var grants check.Property = &GrantOrder{Order: order, Strict: true, Promise: promise}
	if !pl.Strict {
		grants = Counted(&GrantOrder{Order: order, Promise: promise})
	}
	return append(ps, grants, &Deadlock{}, &Starvation{}, check.Termination{})
}

// System is a run of pl under workload w, named name: a System of its
// own, with fresh workload state and properties. A workload without end
// asks for no termination (no run ends: every cycle would break it) and,
// where lost tokens are regenerated, for eventually one token.
func (pl Plan) System(name string, w Workload) engine.System {
	sys := engine.System{
		Name:       name,
		Nodes:      pl.Nodes,
		Factory:    pl.Factory,
		Messages:   pl.Messages,
		Script:     w.Actions(pl.Start),
		Workload:   w.Reactor(pl.Nodes),
		Properties: pl.Properties(),
		Names:      pl.Names,
		Topology:   pl.Topology,
		Edges:      pl.Edges,
		Symmetry:   pl.symmetryFor(w),
	}
	if w.Forever {
		if pl.Kind == Token && pl.Regen {
			sys.Properties = append(sys.Properties, &TokenEventually{Type: pl.tokenType()})
		}
		sys.Endless = "with --requests 0 no run ends (--requests N ends them)"
		sys.Properties = slices.DeleteFunc(sys.Properties, func(p check.Property) bool { return p.ID() == check.IDTermination })
	}
	if pl.Dress != nil {
		pl.Dress(&sys)
	}
	return sys
}

// symmetryFor is pl's symmetry if w treats the nodes it moves alike: all
// of them requesters or none, and no node with a CS time of its own (a
// scenario's slow holder).
func (pl Plan) symmetryFor(w Workload) *engine.Symmetry {
	sym := pl.Symmetry
	if sym == nil || len(w.CSFor) > 0 {
		return nil
	}
	moved := sym.Interchangeable
	if sym.Rotations {
		moved = Plan{Nodes: pl.Nodes}.requesters()
	}
	asking := 0
	for _, i := range moved {
		if slices.Contains(w.Requesters, i) {
			asking++
		}
	}
	if asking != 0 && asking != len(moved) {
		return nil
	}
	return sym
}
