package mutex

import (
	"math/rand/v2"
	"slices"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// workload is the course chapter's "processes that try": each requester asks for the
// critical section `requests` times. It asks first at its start tick,
// releases cs ticks after every entry, and asks again think ticks after
// every exit while it has requests left.
type workload struct {
	requesters []int
	requests   int
	forever    bool // ask again after every exit, without end (an exhaustive check's --requests 0)
	cs, think  int64
	starts     map[int]int64 // first request tick by node
	csFor      map[int]int64 // a node's own CS time (a scenario's slow holder)
	script     []node.Action // extra scripted actions (a scenario's requests and faults)
}

// newWorkload draws each requester's first request tick uniformly from
// [0, think], so that nodes do not all start in lockstep unless think is 0.
// The draw is the same for every --seed (the seed drives the simulator's
// schedule): explore tries many seeds on one workload, and the replay of a
// schedule it prints must find that same workload.
func newWorkload(pl plan, requests int, cs, think int64) workload {
	w := workload{requesters: pl.requesters, requests: requests, cs: cs, think: think, starts: map[int]int64{}}
	rng := rand.New(rand.NewPCG(uint64(pl.nodes), 0x6d75746578)) // "mutex"
	for _, i := range pl.requesters {
		w.starts[i] = rng.Int64N(think + 1)
	}
	return w
}

// actions is the run's script: the algorithm's start, then every first request.
func (w workload) actions(pl plan) []node.Action {
	acts := append([]node.Action(nil), pl.start...)
	if w.requests > 0 || w.forever {
		for _, i := range w.requesters {
			acts = append(acts, node.Action{At: w.starts[i], Node: i, Cmd: node.CmdRequest})
		}
	}
	return append(acts, w.script...)
}

// reactor is the workload of one run, an engine.Workload: its state is
// the requests each node has left. React is called for node i only from
// node i's own step (its goroutine on the live runtime), and left[i] is
// touched only there. The exhaustive checker carries it in every state.
type reactor struct {
	w    *workload // shared, never changed
	left []int
}

var _ engine.Workload = (*reactor)(nil)

func (w *workload) newReactor(n int) *reactor {
	r := &reactor{w: w, left: make([]int, n+1)}
	for _, i := range w.requesters {
		r.left[i] = max(w.requests-1, 0)
	}
	return r
}

// React releases the critical section cs ticks after every entry, and asks
// again think ticks after every exit while the node has requests left.
func (r *reactor) React(i int, ev node.Event, _ int64) []node.Action {
	switch ev.Kind {
	case node.EvEnterCS:
		cs, ok := r.w.csFor[i]
		if !ok {
			cs = r.w.cs
		}
		return []node.Action{{At: cs, Node: i, Cmd: node.CmdRelease}}
	case node.EvExitCS:
		if r.w.forever {
			return []node.Action{{At: r.w.think, Node: i, Cmd: node.CmdRequest}}
		}
		if r.left[i] > 0 {
			r.left[i]--
			return []node.Action{{At: r.w.think, Node: i, Cmd: node.CmdRequest}}
		}
	}
	return nil
}

// Wants says React answers entries and exits only.
func (r *reactor) Wants() trace.Kinds { return trace.KindsOf(trace.KindEnterCS, trace.KindExitCS) }

// Crash and Restart change nothing: a node that comes back keeps the
// requests it had left.
func (r *reactor) Crash(int)   {}
func (r *reactor) Restart(int) {}

// Clone copies the requests left. A workload without end counts none
// (React asks again after every exit and changes nothing), so its clones
// share it.
func (r *reactor) Clone() engine.Workload {
	if r.w.forever {
		return r
	}
	return &reactor{w: r.w, left: slices.Clone(r.left)}
}

// RenameNodes implements check.NodeRenamer (engine.Symmetry): the requests
// left move with their nodes. The shared plan (requesters, scenario CS
// times) is not renamed: a System declares a symmetry only where it treats
// the nodes alike.
func (r *reactor) RenameNodes(perm []int) {
	if r.w.forever {
		return // no requests are counted, and the reactor is shared (Clone)
	}
	left := make([]int, len(r.left))
	for i, k := range r.left {
		left[perm[i]] = k
	}
	r.left = left
}

// AppendKey encodes the requests left, one byte a node (at most 8 each in
// an exhaustive check, which is all that keys a state).
func (r *reactor) AppendKey(b []byte) []byte {
	for _, k := range r.left {
		b = append(b, byte(k))
	}
	return b
}

// symmetryOf is pl's symmetry if w treats the nodes it moves alike: all
// of them requesters or none, and no node with a CS time of its own (a
// scenario's slow holder).
func symmetryOf(pl plan, w workload) *engine.Symmetry {
	sym := pl.symmetry
	if sym == nil || len(w.csFor) > 0 {
		return nil
	}
	moved := sym.Interchangeable
	if sym.Rotations {
		moved = span(1, pl.nodes)
	}
	asking := 0
	for _, i := range moved {
		if slices.Contains(w.requesters, i) {
			asking++
		}
	}
	if asking != 0 && asking != len(moved) {
		return nil
	}
	return sym
}

// newSpec assembles a run of plan pl under workload w: a System of its
// own, with fresh workload state and properties, and the figures st it
// counts as it runs.
func newSpec(name string, pl plan, w workload) (sys engine.System, st *stats) {
	st = newStats()
	return engine.System{
		Name:       name,
		Nodes:      pl.nodes,
		Factory:    pl.factory,
		Messages:   pl.messages,
		Script:     w.actions(pl),
		Workload:   w.newReactor(pl.nodes),
		Properties: pl.checkers(),
		Goals:      goals(pl),
		Observe:    st.observe,
		Figures:    func(s *trace.Summary) map[string]any { return st.extra(s, pl) },
		Names:      pl.names,
		Topology:   pl.topology,
		Edges:      pl.edges,
		Symmetry:   symmetryOf(pl, w),
	}, st
}
