package mutex

import (
	"fmt"

	"ringlab/internal/check"
	"ringlab/internal/node"
	"ringlab/internal/trace"
	"ringlab/mutex/central"
	"ringlab/mutex/internal/mutexcheck"
	"ringlab/mutex/lamport"
	"ringlab/mutex/maekawa"
	"ringlab/mutex/quorum"
	"ringlab/mutex/ricart"
	"ringlab/mutex/tokenring"
)

// Algorithm names, as the subcommands spell them, in the order of
// mutex/README.md.
const (
	algoCentral = "central"
	algoToken   = "token-ring"
	algoQuorum  = "quorum"
	algoRicart  = "ricart-agrawala"
	algoLamport = "lamport"
	algoMaekawa = "maekawa"
)

var algoNames = []string{algoCentral, algoToken, algoQuorum, algoRicart, algoLamport, algoMaekawa}

// params is one run's algorithm and its options, independent of the CLI
// (compare, the benchmarks and the tests build them directly).
type params struct {
	algo     string
	nodes    int // --nodes: all nodes (central: with the coordinator); quorum: participants
	requests int // --requests per requesting node (token-ring: for the token's retirement)

	grantTimeout int64             // central: the coordinator takes the permission back
	regenTimeout int64             // token-ring: a waiting node creates a token
	coordinators int               // quorum: n
	quorum       int               // quorum: m (0: n/2+1)
	retryTimeout int64             // quorum: give up and retry without m OKs
	broadcast    bool              // ricart: the course variant's RELEASE broadcast
	replyTimeout int64             // ricart: "a silent peer counts as a reply" (0: off)
	ringRequests []int             // token-ring: requests by node (index 0 = node 1); nil: requests each
	ids          []int             // ricart: algorithm ids by index (N3..N80 in the worked example); nil: the index
	clock        lamport.ClockRule // lamport: which events move the clock
	names        func(int) string  // a scenario's own node names; nil: the algorithm's
}

// namesOr is the scenario's names, or the algorithm's own.
func (p params) namesOr(own func(int) string) func(int) string {
	if p.names != nil {
		return p.names
	}
	return own
}

// plan is what an algorithm contributes to a run: its nodes, who uses the
// CS, the order it promises, and its message theory.
type plan struct {
	nodes      int
	factory    node.Factory
	messages   []node.Msg    // the algorithm's message registry
	requesters []int         // nodes that run the workload
	start      []node.Action // at tick 0, before any request
	order      func() mutexcheck.KeyFunc
	strict     bool             // the order is a promise (a violation if broken)
	promise    string           // the order's name
	token      bool             // check one token
	theory     string           // messages per entry, in theory
	exact      int              // messages per entry exactly, when the theory is exact (0: not)
	names      func(int) string // display names: roles, or algorithm ids
	topology   string
	edges      [][2]int
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

// build turns params into a plan; errors are the algorithm's config errors.
func (p params) build() (plan, error) {
	var pl plan
	var err error
	switch p.algo {
	case algoCentral:
		pl.names, pl.topology = p.namesOr(centralNames), trace.TopoStar
		pl.messages = central.MessageTypes()
		pl.factory, err = central.Factory(central.Config{N: p.nodes, Timeout: p.grantTimeout, Name: pl.names})
		pl.nodes, pl.requesters = p.nodes, span(2, p.nodes)
		pl.order, pl.strict, pl.promise = centralOrder, true, "the order requests reached the coordinator"
		pl.theory, pl.exact = "4", 4
	case algoToken:
		reqs := p.ringRequests
		if reqs == nil {
			reqs = make([]int, p.nodes)
			for k := range reqs {
				reqs[k] = p.requests
			}
		}
		pl.messages = tokenring.MessageTypes()
		pl.factory, err = tokenring.Factory(tokenring.Config{N: p.nodes, RegenTimeout: p.regenTimeout, Requests: reqs})
		pl.nodes, pl.requesters, pl.token = p.nodes, span(1, p.nodes), true
		pl.start = []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}
		pl.order, pl.promise = mutexcheck.RequestTime, "ring order"
		pl.theory = fmt.Sprintf("1..N = 1..%d", p.nodes)
		pl.names, pl.topology = processNames, trace.TopoRing
	case algoQuorum:
		n, m := p.coordinators, p.quorum
		if m == 0 {
			m = n/2 + 1
		}
		pl.messages = quorum.MessageTypes()
		pl.factory, err = quorum.Factory(quorum.Config{Coordinators: n, Participants: p.nodes, M: m, RetryTimeout: p.retryTimeout})
		pl.nodes, pl.requesters = n+p.nodes, span(n+1, n+p.nodes)
		pl.order, pl.promise = mutexcheck.RequestTime, "each coordinator's own queue order"
		pl.theory = fmt.Sprintf("2n+m..3n = %d..%d", 2*n+m, 3*n)
		pl.names, pl.topology = quorumNames(n), trace.TopoGraph
		for c := 1; c <= n && n*p.nodes <= 100_000; c++ {
			for q := n + 1; q <= n+p.nodes; q++ {
				pl.edges = append(pl.edges, [2]int{c, q})
			}
		}
	case algoRicart:
		pl.names, pl.topology = processNames, trace.TopoComplete
		if p.ids != nil {
			pl.names = idNames(p.ids)
		}
		pl.names = p.namesOr(pl.names)
		cfg := ricart.Config{N: p.nodes, Ids: p.ids, ReleaseBroadcast: p.broadcast, TimeoutAsReply: p.replyTimeout > 0, Timeout: p.replyTimeout, Name: pl.names}
		pl.messages = ricart.MessageTypes()
		pl.factory, err = ricart.Factory(cfg)
		pl.nodes, pl.requesters = p.nodes, span(1, p.nodes)
		pl.order, pl.strict, pl.promise = stampOrder(string(ricart.MsgRequest)), true, "(timestamp, id) order"
		pl.exact = ricart.MessagesPerEntry(p.nodes, p.broadcast)
		pl.theory = fmt.Sprintf("2(N-1) = %d", pl.exact)
		if p.broadcast {
			pl.theory = fmt.Sprintf("3(N-1) = %d", pl.exact)
		}
	case algoLamport:
		pl.messages = lamport.MessageTypes()
		pl.factory, err = lamport.Factory(lamport.Config{N: p.nodes, Clock: p.clock})
		pl.nodes, pl.requesters = p.nodes, span(1, p.nodes)
		pl.order, pl.strict, pl.promise = stampOrder(string(lamport.MsgAcquire)), true, "(timestamp, id) order"
		pl.names, pl.topology = processNames, trace.TopoComplete
		pl.exact = lamport.MessagesPerEntry(p.nodes)
		pl.theory = fmt.Sprintf("3(N-1) = %d", pl.exact)
	case algoMaekawa:
		pl.messages = maekawa.MessageTypes()
		pl.factory, err = maekawa.Factory(maekawa.Config{N: p.nodes})
		pl.nodes, pl.requesters = p.nodes, span(1, p.nodes)
		pl.order, pl.promise = mutexcheck.RequestTime, "each arbiter's (timestamp, id) order"
		pl.names, pl.topology = processNames, trace.TopoComplete
		lo, hi := maekawa.MessagesPerEntry(p.nodes)
		pl.theory = fmt.Sprintf("3(K-1)..5(K-1) = %d..%d, K=%d", lo, hi, maekawa.QuorumSize(p.nodes))
	default:
		err = fmt.Errorf("unknown algorithm %q", p.algo)
	}
	pl.names = p.namesOr(pl.names)
	pl.factory = workloadDone(pl.factory)
	return pl, err
}

// workloadDone builds nodes that never report Done. The algorithms say
// Done when they are idle now (no request outstanding, resource free), and
// the runtimes take Done as final, so a run would end while every node
// "thinks" between two requests. Under a workload the run ends when nothing
// is left to happen: no message, timer or workload action pending.
func workloadDone(f node.Factory) node.Factory {
	if f == nil {
		return nil
	}
	return func(i int) (node.Node, error) {
		nd, err := f(i)
		if err != nil {
			return nil, err
		}
		return notDone{nd}, nil
	}
}

type notDone struct{ node.Node }

func (n notDone) Step(in node.Input, out *node.Output) {
	n.Node.Step(in, out)
	out.Done = false
}

// checkers are the verdicts of every mutex run (the chapter's properties):
// safety first, so that a run's exit code names a safety violation before
// a liveness failure.
func (pl plan) checkers() []check.Property {
	cs := []check.Property{&check.MutualExclusion{}}
	if pl.token {
		cs = append(cs, &mutexcheck.OneToken{Type: tokenring.Msg{}.Type()})
	}
	return append(cs,
		&mutexcheck.GrantOrder{Key: pl.order(), Strict: pl.strict, Promise: pl.promise},
		&mutexcheck.Deadlock{}, &mutexcheck.Starvation{}, check.Termination{})
}

// centralOrder keys a request by its arrival at the coordinator (node 1):
// the coordinator serves its queue first come, first served.
func centralOrder() mutexcheck.KeyFunc {
	var seq int64
	return func(e *trace.Event) (int, mutexcheck.Key, bool) {
		if e.Kind != trace.KindRecv || e.Msg == nil || e.Msg.Type() != central.MsgRequestAccess.String() {
			return 0, mutexcheck.Key{}, false
		}
		seq++
		return e.From, mutexcheck.Key{e.T, seq}, true
	}
}

// stampOrder keys a request by the (T, ID) its request message carries.
func stampOrder(typ string) func() mutexcheck.KeyFunc {
	return func() mutexcheck.KeyFunc {
		return func(e *trace.Event) (int, mutexcheck.Key, bool) {
			if e.Kind != trace.KindSend || e.Msg == nil || e.Msg.Type() != typ {
				return 0, mutexcheck.Key{}, false
			}
			var t, id int
			switch m := e.Msg.Value.(type) {
			case ricart.Msg:
				t, id = m.T, m.ID
			case lamport.Msg:
				t, id = m.T, m.ID
			default:
				return 0, mutexcheck.Key{}, false
			}
			return e.Node, mutexcheck.Key{int64(t), int64(id)}, true
		}
	}
}

// Clone implements node.Snapshot for the exhaustive checker; every mutex
// algorithm's node is a node.Snapshot.
func (n notDone) Clone() node.Node { return notDone{n.Node.(node.Snapshot).Clone()} }

// AppendKey implements node.Snapshot.
func (n notDone) AppendKey(b []byte) []byte { return n.Node.(node.Snapshot).AppendKey(b) }
