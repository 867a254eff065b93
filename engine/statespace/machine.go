package statespace

import (
	"fmt"
	"hash/maphash"
	"math"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// A Machine steps a system's states one transition at a time, as the
// search does, for the analyses that walk the state graph themselves
// (package ringlab/engine/explore). It steps the same real node code
// under the same Config, so a path it takes replays with Replay.
//
// A Machine is not safe for concurrent use. Its memory grows with the
// distinct node states, messages and commands it meets (Interned).
type Machine struct {
	m      *machine
	s0     *state
	reduce bool // keys are those of the reduced states (shiftable)
	seed   maphash.Seed
	// names and wholes are, by the index of a check.Eventually property,
	// its ID and whether its promise is to the run as a whole
	names  []check.ID
	wholes []bool
}

// A State is one state of a Machine's system. It is never changed once
// made; only the Machine that made it can read it. The zero State is
// none.
type State struct{ s *state }

// NewMachine checks cfg as Search does and returns a Machine over its
// system.
func NewMachine(cfg Config) (*Machine, error) {
	m, s0, err := newMachine(cfg, nil, nil)
	if err != nil {
		return nil, err
	}
	x := &Machine{m: m, s0: s0, reduce: shiftable(cfg), seed: maphash.MakeSeed()}
	if cfg.Checks != nil {
		ws := wholes(cfg)
		for _, p := range cfg.Checks() {
			if _, ok := p.(check.Eventually); ok {
				x.names, x.wholes = append(x.names, p.ID()), append(x.wholes, isWhole(ws, len(x.names)))
			}
		}
	}
	return x, nil
}

// Initial returns the initial state (after Config.From, if set).
func (x *Machine) Initial() State { return State{x.s0} }

// Enabled appends the transitions enabled in s to ts, in the order the
// search takes them; none in a terminal state.
func (x *Machine) Enabled(s State, ts []Trans) []Trans { return x.m.enabled(s.s, ts) }

// Find returns the transition enabled in s that t names as a path's label
// does (ParsePath leaves out which message a delivery takes); ok is false
// when none is.
func (x *Machine) Find(s State, t Trans) (u Trans, ok bool) { return x.m.find(s.s, t) }

// Step takes transition t, enabled in s (Enabled, Find), and returns the
// state it leads to and the property the step violated, if any. Sent and
// Kept then describe the step.
func (x *Machine) Step(s State, t Trans) (State, *Violation, error) {
	x.m.out.Reset()
	next, v, err := x.m.step(s.s, t)
	return State{next}, v, err
}

// Sent is the messages the last Step sent. The slice is the Machine's:
// the next Step reuses it.
func (x *Machine) Sent() []node.Send { return x.m.out.Sends }

// Kept is the promises the last Step kept (with Config.Liveness), a bit
// each as in Owed.
func (x *Machine) Kept() uint64 { return x.m.kept }

// Owed is the promises owed in s (with Config.Liveness), a bit each:
// Promise says what bit b is.
func (x *Machine) Owed(s State) uint64 { return x.m.owed(s.s) }

// A Promise is one promise of a check.Eventually property, a bit of
// Owed and Kept.
type Promise struct {
	K        int      // the property's number among the check.Eventually properties of Config.Checks
	Property check.ID // its ID
	Node     int      // the node it is owed to; 0: the run as a whole (a check.Whole promise)
}

// Promise says what bit b of Owed and Kept is; ok is false when the bit
// stands for no promise.
func (x *Machine) Promise(b int) (p Promise, ok bool) {
	n := x.m.n
	p.K = b / n
	if b < 0 || b >= 64 || p.K >= len(x.names) || x.wholes[p.K] && b%n != 0 {
		return p, false
	}
	p.Property = x.names[p.K]
	if !x.wholes[p.K] {
		p.Node = b%n + 1
	}
	return p, true
}

// Terminal reports whether s is terminal: nothing is in flight and no
// live node has a pending input.
func (x *Machine) Terminal(s State) bool { return x.m.terminal(s.s) }

// Within reports whether s is within the state constraint
// (Config.Within, Config.MaxFlight); a search does not expand a state
// beyond it.
func (x *Machine) Within(s State) bool { return x.m.within(s.s) }

// Reduced returns the state the search keeps for s: with the exact
// reductions it applies (the clock shift, identifiers renamed, values
// never read forgotten), where it applies them; s itself elsewhere. Two
// states with the same reduced state have the same futures.
func (x *Machine) Reduced(s State) State {
	if !x.reduce {
		return s
	}
	return State{x.m.shift(s.s)}
}

// Key is the fingerprint of Reduced(s): two states with the same Key
// (from one Machine) are the same state for the search.
func (x *Machine) Key(s State) uint64 {
	return maphash.Bytes(x.seed, x.Reduced(s).s.appendKey(nil, x.m.in))
}

// A NodeState is one node in a state.
type NodeState struct {
	Node  node.Node // its variables; shared by every state that has them: not to be changed
	Alive bool      // false once crashed, until a restart
	Done  bool      // whether its last step said it had finished its part
	// Pending lists its pending commands and timers ("request", "timer 1").
	Pending []string
}

// Nodes describes every node of s, node i at index i-1.
func (x *Machine) Nodes(s State) []NodeState {
	ns := make([]NodeState, x.m.n)
	for i := 1; i <= x.m.n; i++ {
		v := NodeState{Node: x.m.in.nodeObj[s.s.nodes[i-1]], Alive: s.s.alive(i), Done: s.s.done&(1<<(i-1)) != 0}
		lo, hi := s.s.pendOf(i)
		for _, p := range s.s.pend[lo:hi] {
			if p.kind == pendCmd {
				v.Pending = append(v.Pending, string(x.m.in.cmds[p.val].cmd))
			} else {
				v.Pending = append(v.Pending, fmt.Sprintf("timer %d", p.val))
			}
		}
		ns[i-1] = v
	}
	return ns
}

// A Message is a message in flight.
type Message struct {
	From, To int      // the link From -> To
	K        int      // its position on the link (0: the head; the label's .K under the random policy)
	Msg      node.Msg // the message itself
}

// AppendFlights appends every message in flight in s to ms, link by link.
func (x *Machine) AppendFlights(ms []Message, s State) []Message {
	n := x.m.n
	for k, it := range s.s.net {
		pos := 0
		for j := k - 1; j >= 0 && s.s.net[j].link == it.link; j-- {
			pos++
		}
		ms = append(ms, Message{From: int(it.link)/n + 1, To: int(it.link)%n + 1, K: pos, Msg: x.m.in.msgs[it.id]})
	}
	return ms
}

// Input is what transition t, enabled in s, gives its node: the message
// it delivers or drops, or the command it gives; neither for the others.
func (x *Machine) Input(s State, t Trans) (node.Msg, node.Cmd) {
	switch t.Kind {
	case Deliver, Drop:
		return x.m.in.msgs[t.Msg], ""
	case Command:
		lo, _ := s.s.pendOf(int(t.Node))
		return nil, x.m.in.cmds[s.s.pend[lo].val].cmd
	}
	return nil, ""
}

// Replay is the package's Replay with the Machine's interned values, so
// that it also returns the state path reaches, which the Machine steps
// on.
func (x *Machine) Replay(path []Trans, sink func(*trace.Event)) (ReplayResult, State, error) {
	rr, err := replay(x.m.cfg, x.m.in, path, sink)
	return rr, State{rr.end}, err
}

// Interned is the number of distinct node states, messages, commands and
// environments the Machine has met and keeps: what its memory grows
// with.
func (x *Machine) Interned() int {
	in := x.m.in
	return len(in.nodeObj) + len(in.msgs) + len(in.cmds) + len(in.envObj)
}

// FairGroup is t's group of weak fairness, the steps one promise of
// fairness covers: the delivery (or loss) of one message on a link, a
// node's commands, one of its timers. ok is false for a crash or a
// restart, which fairness never forces.
func FairGroup(t Trans) (group Trans, ok bool) { return fairGroup(t) }

// Unbounded is a count without bound: a cycle can repeat what is counted
// for ever.
const Unbounded = math.MaxInt64

// wholes is, by the index of a check.Eventually property of cfg, what a
// promise made to the run as a whole (check.Whole) leaves unmet, in
// words; "" for a property whose promises are made to nodes.
func wholes(cfg Config) []string {
	if cfg.Checks == nil {
		return nil
	}
	var ws []string
	for _, p := range cfg.Checks() {
		if ev, ok := p.(check.Eventually); ok {
			w := ""
			if wp, ok := ev.Promise().(check.Whole); ok {
				w = wp.Unmet()
			}
			ws = append(ws, w)
		}
	}
	return ws
}

// isWhole reports whether ws (wholes) says the k-th property's promise
// is made to the run as a whole.
func isWhole(ws []string, k int) bool { return k < len(ws) && ws[k] != "" }
