package mutex

import (
	"fmt"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/mutex/central"
	"ringlab/mutex/kit"
	"ringlab/mutex/lamport"
	"ringlab/mutex/maekawa"
	"ringlab/mutex/quorum"
	"ringlab/mutex/ricart"
	"ringlab/mutex/tokenring"
)

// plan is what an algorithm contributes to a run: its nodes, who uses the
// CS, the order it promises, and its message theory.
type plan struct {
	nodes      int
	factory    node.Factory
	messages   []node.Msg    // the algorithm's message registry
	requesters []int         // nodes that run the workload
	start      []node.Action // at tick 0, before any request
	order      kit.Order
	strict     bool   // the order is a promise (a violation if broken)
	promise    string // the order's name
	token      bool   // check one token
	regen      bool   // a lost token is regenerated: check that eventually one is left (checks without end)
	infinite   string // why a check without end (--requests 0) has an infinite space even reduced ("": it may not)
	// unexhausted says why a check without end is refused although its
	// space is not known to be infinite ("": it is not refused for that)
	unexhausted string
	theory      string           // messages per entry, in theory
	exact       int              // messages per entry exactly, when the theory is exact (0: not)
	names       func(int) string // display names: roles, or algorithm ids
	topology    string
	edges       [][2]int
	// symmetry is the renamings of the nodes the algorithm behaves alike
	// under (engine.Symmetry), nil if none; newSpec keeps it only for a
	// workload that treats those nodes alike.
	symmetry *engine.Symmetry
}

// processNames names nodes P1..Pn, as the chapter names processes.
func processNames(i int) string { return fmt.Sprintf("P%d", i) }

// idNames names nodes by their algorithm ids: N3, N5, ...
func idNames(ids []int) func(int) string {
	return func(i int) string { return fmt.Sprintf("N%d", ids[i-1]) }
}

func span(a, b int) []int {
	ns := make([]int, 0, b-a+1)
	for i := a; i <= b; i++ {
		ns = append(ns, i)
	}
	return ns
}

// centralPlan is the central coordinator cfg; cfg.Name names the nodes
// (nil: the coordinator and P1, P2, ...).
func centralPlan(cfg central.Config) (plan, error) {
	if cfg.Name == nil {
		cfg.Name = centralNames
	}
	f, err := central.Factory(cfg)
	return plan{
		nodes: cfg.N, factory: workloadDone[*central.Node](f), messages: central.MessageTypes(), requesters: span(2, cfg.N),
		order: centralOrder(), strict: true, promise: "the order requests reached the coordinator",
		theory: "4", exact: 4, names: cfg.Name, topology: trace.TopoStar,
		symmetry: participantSymmetry(central.Symmetric(cfg)),
	}, err
}

// tokenPlan is the token ring cfg: node 1 starts with the token.
func tokenPlan(cfg tokenring.Config) (plan, error) {
	f, err := tokenring.Factory(cfg)
	return plan{
		nodes: cfg.N, factory: workloadDone[*tokenring.Node](f), messages: tokenring.MessageTypes(), requesters: span(1, cfg.N), token: true, regen: cfg.RegenTimeout > 0,
		start: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		order: kit.RequestTime(), promise: "ring order",
		theory: fmt.Sprintf("1..N = 1..%d", cfg.N), names: processNames, topology: trace.TopoRing,
		symmetry: ringSymmetry(tokenring.Symmetric(cfg)),
	}, err
}

// participantSymmetry declares the permutations of the interchangeable
// participants ps (none: nil).
func participantSymmetry(ps []int) *engine.Symmetry {
	if len(ps) < 2 {
		return nil
	}
	return &engine.Symmetry{Interchangeable: ps}
}

// ringSymmetry declares the rotations of the ring where sym holds.
func ringSymmetry(sym bool) *engine.Symmetry {
	if !sym {
		return nil
	}
	return &engine.Symmetry{Rotations: true}
}

// quorumPlan is the quorum of coordinators cfg: coordinators first, then
// the participants, each linked to every coordinator.
func quorumPlan(cfg quorum.Config) (plan, error) {
	n, m := cfg.Coordinators, cfg.M
	f, err := quorum.Factory(cfg)
	pl := plan{
		nodes: n + cfg.Participants, factory: workloadDone[*quorum.Node](f), messages: quorum.MessageTypes(), requesters: span(n+1, n+cfg.Participants),
		order: kit.RequestTime(), promise: "each coordinator's own queue order",
		theory: fmt.Sprintf("2n+m..3n = %d..%d", 2*n+m, 3*n), names: quorumNames(n), topology: trace.TopoGraph,
	}
	if m < n {
		pl.infinite = fmt.Sprintf("with --quorum %d of %d coordinators, a participant can enter again and again while its messages to a coordinator it does not need pile up on that link", m, n)
	}
	for c := 1; c <= n && n*cfg.Participants <= 100_000; c++ {
		for q := n + 1; q <= n+cfg.Participants; q++ {
			pl.edges = append(pl.edges, [2]int{c, q})
		}
	}
	return pl, err
}

// ricartPlan is Ricart-Agrawala cfg; cfg.Name names the nodes (nil: by
// cfg.Ids, N3, N5, ..., or P1, P2, ...).
func ricartPlan(cfg ricart.Config) (plan, error) {
	switch {
	case cfg.Name != nil:
	case cfg.Ids != nil:
		cfg.Name = idNames(cfg.Ids)
	default:
		cfg.Name = processNames
	}
	f, err := ricart.Factory(cfg)
	pl := plan{
		nodes: cfg.N, factory: workloadDone[*ricart.Node](f), messages: ricart.MessageTypes(), requesters: span(1, cfg.N),
		order: stampOrder(string(ricart.MsgRequest)), strict: true, promise: "(timestamp, id) order",
		exact: ricart.MessagesPerEntry(cfg.N, cfg.ReleaseBroadcast), names: cfg.Name, topology: trace.TopoComplete,
	}
	pl.theory = fmt.Sprintf("2(N-1) = %d", pl.exact)
	if cfg.ReleaseBroadcast {
		pl.theory = fmt.Sprintf("3(N-1) = %d", pl.exact)
	}
	return pl, err
}

// lamportPlan is Lamport's algorithm cfg.
func lamportPlan(cfg lamport.Config) (plan, error) {
	f, err := lamport.Factory(cfg)
	exact := lamport.MessagesPerEntry(cfg.N)
	return plan{
		nodes: cfg.N, factory: workloadDone[*lamport.Node](f), messages: lamport.MessageTypes(), requesters: span(1, cfg.N),
		order: stampOrder(string(lamport.MsgAcquire)), strict: true, promise: "(timestamp, id) order",
		exact: exact, theory: fmt.Sprintf("3(N-1) = %d", exact), names: processNames, topology: trace.TopoComplete,
	}, err
}

// maekawaPlan is Maekawa's algorithm cfg.
func maekawaPlan(cfg maekawa.Config) (plan, error) {
	f, err := maekawa.Factory(cfg)
	lo, hi := maekawa.MessagesPerEntry(cfg.N)
	pl := plan{
		nodes: cfg.N, factory: workloadDone[*maekawa.Node](f), messages: maekawa.MessageTypes(), requesters: span(1, cfg.N),
		order: kit.RequestTime(), promise: "each arbiter's (timestamp, id) order",
		theory: fmt.Sprintf("3(K-1)..5(K-1) = %d..%d, K=%d", lo, hi, maekawa.QuorumSize(cfg.N)), names: processNames, topology: trace.TopoComplete,
	}
	if cfg.N >= 4 {
		pl.unexhausted = "from 4 nodes on, Maekawa's space with no end is not known to be finite (narrowing the gap behind a node left behind closes it at 3 nodes; at 4 a search had not ended after 17.7 million states, at depth 24)"
	}
	return pl, err
}

// workloadDone builds nodes that never report Done. The algorithms say
// Done when they are idle now (no request outstanding, resource free), and
// the runtimes take Done as final, so a run would end while every node
// "thinks" between two requests. Under a workload the run ends when nothing
// is left to happen: no message, timer or workload action pending. N is the
// type of f's nodes; a node of another type is an error.
func workloadDone[N node.Snapshot](f node.Factory) node.Factory {
	if f == nil {
		return nil
	}
	return func(i int) (node.Node, error) {
		nd, err := f(i)
		if err != nil {
			return nil, err
		}
		typed, ok := nd.(N)
		if !ok {
			return nil, fmt.Errorf("mutex: node %d is a %T, not a %T", i, nd, typed)
		}
		if _, ok := any(typed).(node.Climber); ok {
			return climbing[N]{notDone[N]{typed}}, nil
		}
		return notDone[N]{typed}, nil
	}
}

// notDone is node nd that never reports Done. It holds the node by its
// concrete type N, a pointer, so that a notDone is one pointer: putting it
// in an interface (every Clone does) allocates nothing.
type notDone[N node.Snapshot] struct{ nd N }

// wrapped is a notDone of any node type.
type wrapped interface{ Unwrap() node.Node }

// Unwrap is the algorithm's node (engine/vet reads its source by it).
func (n notDone[N]) Unwrap() node.Node { return n.nd }

// unwrap is the algorithm's node inside nd (nd itself if it is none).
func unwrap(nd node.Node) node.Node {
	if w, ok := nd.(wrapped); ok {
		return w.Unwrap()
	}
	return nd
}

// Step steps the node and clears its Done.
func (n notDone[N]) Step(in node.Input, out *node.Output) {
	n.nd.Step(in, out)
	out.Done = false
}

// centralOrder keys a request by its arrival at the coordinator (node 1):
// the coordinator serves its queue first come, first served.
func centralOrder() kit.Order {
	return kit.Order{Kinds: trace.KindsOf(trace.KindRecv), Arrival: true, Key: func(e *trace.Event) (int, kit.Key, bool) {
		if e.Kind != trace.KindRecv || e.Msg == nil || e.Msg.Type() != central.MsgRequestAccess.String() {
			return 0, kit.Key{}, false
		}
		return e.From, kit.Key{e.T, 0}, true
	}}
}

// stamped is a request message that carries the (timestamp, id) its
// algorithm grants in: Ricart-Agrawala's REQUEST, Lamport's ACQUIRE.
type stamped interface{ Stamp() (t, id int) }

// stampOrder keys a request by the (T, ID) its request message carries.
func stampOrder(typ string) kit.Order {
	return kit.Order{Kinds: trace.KindsOf(trace.KindSend), Key: func(e *trace.Event) (int, kit.Key, bool) {
		if e.Kind != trace.KindSend || e.Msg == nil || e.Msg.Type() != typ {
			return 0, kit.Key{}, false
		}
		m, ok := e.Msg.Value.(stamped)
		if !ok {
			return 0, kit.Key{}, false
		}
		t, id := m.Stamp()
		return e.Node, kit.Key{int64(t), int64(id)}, true
	}}
}

// Clone implements node.Snapshot for the exhaustive checker; every mutex
// algorithm's node is a node.Snapshot.
func (n notDone[N]) Clone() node.Node { return notDone[N]{n.nd.Clone().(N)} }

// AppendKey implements node.Snapshot.
func (n notDone[N]) AppendKey(b []byte) []byte { return n.nd.AppendKey(b) }

// Values implements node.Valuer: the node's own declaration (every mutex
// algorithm's node declares its values).
func (n notDone[N]) Values(v *node.Values) {
	if d, ok := any(n.nd).(node.Valuer); ok {
		d.Values(v)
	}
}

// Forget implements node.Forgetter for the nodes that do (Lamport's and
// Maekawa's); for the others it changes nothing.
func (n notDone[N]) Forget(from int, m node.Msg) (node.Msg, bool) {
	if f, ok := any(n.nd).(node.Forgetter); ok {
		return f.Forget(from, m)
	}
	return m, false
}

// climbing is a notDone whose node is a node.Climber (Maekawa's): only
// those may say Climb, as the checker narrows gaps only where every node
// is one.
type climbing[N node.Snapshot] struct{ notDone[N] }

// Clone implements node.Snapshot.
func (n climbing[N]) Clone() node.Node { return climbing[N]{n.notDone.Clone().(notDone[N])} }

// Climb implements node.Climber.
func (n climbing[N]) Climb(in int) (int, bool) { return any(n.nd).(node.Climber).Climb(in) }
