package kit

import (
	"math/rand/v2"
	"slices"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Workload is the course chapter's "processes that try": each of the
// Requesters asks for the critical section Requests times, or for ever
// (Forever: again after every exit). A node asks first at its tick in
// Starts (0 if absent), releases the critical section CS ticks after every
// entry (CSFor[i] for node i, if set), and asks again Think ticks after
// every exit while it has requests left. Script adds actions of its own at
// absolute times (a scenario's requests and faults).
type Workload struct {
	Requesters []int         // the nodes that ask
	Requests   int           // each one's requests (Forever: ignored)
	Forever    bool          // ask again after every exit, without end
	CS, Think  int64         // ticks inside, and between an exit and the next request
	Starts     map[int]int64 // each one's first request tick (absent: 0)
	CSFor      map[int]int64 // a node's own CS time (a scenario's slow holder)
	Script     []node.Action // more actions at absolute times
}

// NewWorkload is the workload of a run of pl: each of its requesters asks
// requests times, staying cs ticks inside and thinking think ticks between
// two requests. Each requester's first request tick is drawn uniformly
// from [0, think], so that nodes do not all start in lockstep unless think
// is 0. The draw is the same for every --seed (the seed drives the
// simulator's schedule): explore tries many seeds on one workload, and the
// replay of a schedule it prints must find that same workload.
func NewWorkload(pl Plan, requests int, cs, think int64) Workload {
	w := Workload{Requesters: pl.requesters(), Requests: requests, CS: cs, Think: think, Starts: map[int]int64{}}
	rng := rand.New(rand.NewPCG(uint64(pl.Nodes), 0x6d75746578)) // "mutex"
	for _, i := range w.Requesters {
		w.Starts[i] = rng.Int64N(think + 1)
	}
	return w
}

// CheckWorkload is the workload of an exhaustive check of pl: each
// requester asks requests times (0: for ever), with no time in between
// (the checker does not model time).
func CheckWorkload(pl Plan, requests int) Workload {
	w := NewWorkload(pl, max(requests, 1), 0, 0)
	w.Forever = requests == 0
	return w
}

// Actions is the run's script: start (the algorithm's own first actions),
// then every requester's first request, then Script.
func (w *Workload) Actions(start []node.Action) []node.Action {
	acts := slices.Clone(start)
	if w.Requests > 0 || w.Forever {
		for _, i := range w.Requesters {
			acts = append(acts, node.Action{At: w.Starts[i], Node: i, Cmd: node.CmdRequest})
		}
	}
	return append(acts, w.Script...)
}

// Reactor returns the engine.Workload of one run of n nodes under w: it
// answers entries with releases and exits with the next requests. Its
// state is the requests each node has left; w is shared, and must not
// change while the run goes on.
func (w *Workload) Reactor(n int) engine.Workload {
	r := &reactor{w: w, left: make([]int, n+1)}
	for _, i := range w.Requesters {
		r.left[i] = max(w.Requests-1, 0)
	}
	return r
}

// reactor is the workload of one run, an engine.Workload: its state is
// the requests each node has left. React is called for node i only from
// node i's own step (its goroutine on the live runtime), and left[i] is
// touched only there. The exhaustive checker carries it in every state.
type reactor struct {
	w    *Workload // shared, never changed
	left []int
}

var _ engine.Workload = (*reactor)(nil)

// React releases the critical section cs ticks after every entry, and asks
// again think ticks after every exit while the node has requests left.
func (r *reactor) React(i int, ev node.Event, _ int64) []node.Action {
	switch ev.Kind {
	case node.EvEnterCS:
		cs, ok := r.w.CSFor[i]
		if !ok {
			cs = r.w.CS
		}
		return []node.Action{{At: cs, Node: i, Cmd: node.CmdRelease}}
	case node.EvExitCS:
		if r.w.Forever {
			return []node.Action{{At: r.w.Think, Node: i, Cmd: node.CmdRequest}}
		}
		if r.left[i] > 0 {
			r.left[i]--
			return []node.Action{{At: r.w.Think, Node: i, Cmd: node.CmdRequest}}
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
	if r.w.Forever {
		return r
	}
	return &reactor{w: r.w, left: slices.Clone(r.left)}
}

// RenameNodes implements check.NodeRenamer (engine.Symmetry): the requests
// left move with their nodes. The shared workload (requesters, CS times)
// is not renamed: a Plan keeps its symmetry only where its workload treats
// the nodes alike.
func (r *reactor) RenameNodes(perm []int) {
	if r.w.Forever {
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
