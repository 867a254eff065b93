// Package lamport is Lamport's distributed mutual exclusion with a request
// queue (Lamport 1978, "Time, clocks, and the ordering of events in a
// distributed system") on a complete graph of N nodes.
//
// Each node keeps a Lamport clock (send: clock++ and stamp the message;
// receive: clock = max(clock, remote) + 1) and a request queue sorted by
// (timestamp, process id). To enter, a node ticks once, puts (clock, self) in
// its queue and sends ACQUIRE(clock) to every other node — one timestamp for
// the whole broadcast. A node that receives ACQUIRE queues it and answers
// ACK. A node enters when it has an ACK from every other node AND its own
// entry is at the head of its queue. On exit it removes its entry and sends
// RELEASE to all; receivers remove the sender's entry.
//
// Messages per entry: exactly 3(N-1) (MessagesPerEntry).
//
// The algorithm needs FIFO channels. An ACK stands for Lamport's "a message
// with a later timestamp from every other process": over a FIFO link it
// proves that every earlier ACQUIRE of its sender is already queued. Over a
// non-FIFO link an ACK can overtake its sender's ACQUIRE, and two nodes enter
// at once (the tests keep a minimal schedule, the `lamport-nonfifo`
// scenario). RELEASE removes the sender's earliest entry, so a RELEASE
// overtaken by the same sender's next ACQUIRE does no harm.
//
// Config.Clock picks which events move the clock. ClockEveryEvent (the
// default) is the paper's rule above. ClockRequests is the rule of Stephan
// Merz's TLA+ specification of this algorithm (LamportMutex, in the TLA+
// examples and proof library): clocks start at 1, a request is stamped
// with the clock as it stands, only a received ACQUIRE moves the receiver's
// clock (to max(clock, T) + 1), and ACK and RELEASE carry no timestamp.
// Mutual exclusion and the (timestamp, id) order hold under both: what
// orders the requests is only that a node answering an ACQUIRE stamps its
// later requests after it. The second rule keeps clocks small, and lets
// `ringlab mutex check lamport --clock requests --max-clock 6` explore the
// very model that TLC checks with its clock bound.
//
// Decisions the paper leaves open: states are named RELEASED, WANTED, HELD as
// in Ricart-Agrawala; one outstanding request per node, a CmdRequest while WANTED or HELD
// is remembered and issued right after the next release; a CmdRelease when
// not HELD is ignored (with a note).
//
// The tests check, over random per-link FIFO schedules: mutual exclusion,
// every request granted, entries in (timestamp, id) order, 3(N-1) messages
// per entry; and that non-FIFO delivery breaks mutual exclusion.
package lamport

import (
	"fmt"
	"ringlab/mutex/internal/ids"
	"slices"

	"ringlab/engine/node"
)

// Kind is a message kind.
type Kind string

// Message kinds, named as the course notes name them.
const (
	MsgAcquire Kind = "ACQUIRE" // ACQUIRE(T): queue my request
	MsgAck     Kind = "ACK"     // your ACQUIRE is queued
	MsgRelease Kind = "RELEASE" // remove my entry
)

// Msg is a message of Lamport's algorithm.
type Msg struct {
	Kind Kind `json:"kind"`
	T    int  `json:"t"`  // the sender's clock (ACQUIRE: the request's timestamp)
	ID   int  `json:"id"` // ACQUIRE: the requester's id (breaks ties)
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// Stamp is the (timestamp, id) the message carries: the order of requests
// the algorithm promises to grant in.
func (m Msg) Stamp() (t, id int) { return m.T, m.ID }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgAcquire}, Msg{Kind: MsgAck}, Msg{Kind: MsgRelease}}
}

// States, named as in Ricart-Agrawala (package ricart).
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// ClockRule says which events move a node's Lamport clock.
type ClockRule int

const (
	ClockEveryEvent ClockRule = iota // every event ticks, every message carries the clock (the paper)
	ClockRequests                    // only a received ACQUIRE moves the clock (the TLA+ specification)
)

// ParseClockRule reads a rule by its flag name: events or requests.
func ParseClockRule(s string) (ClockRule, error) {
	switch s {
	case "events", "":
		return ClockEveryEvent, nil
	case "requests":
		return ClockRequests, nil
	}
	return 0, fmt.Errorf("unknown clock rule %q (want events or requests)", s)
}

// MaxNodes bounds Config.N.
const MaxNodes = 1024

// Config is one run's configuration; Index picks the node New builds.
type Config struct {
	N     int   // nodes, 1..MaxNodes, all connected to all
	Index int   // the node to build, 1..N (Factory sets it)
	Ids   []int // optional process ids by index; default id = index
	Clock ClockRule
}

// MessagesPerEntry is the theoretical number of messages per CS entry.
func MessagesPerEntry(n int) int { return 3 * (n - 1) }

func (c Config) validate() error { return ids.Check("lamport", c.N, MaxNodes, c.Ids) }

// Factory validates cfg once (cfg.Index is ignored) and returns a builder of
// node i of cfg.N.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Ids = slices.Clone(cfg.Ids)
	return func(i int) (node.Node, error) {
		if i < 1 || i > cfg.N {
			return nil, fmt.Errorf("lamport: node index must be 1..%d, got %d", cfg.N, i)
		}
		c := cfg
		c.Index = i
		return build(&c), nil
	}, nil
}

// New builds node cfg.Index in state RELEASED with an empty queue and clock 0
// (ClockRequests: 1).
func New(cfg Config) (*Node, error) {
	f, err := Factory(cfg)
	if err != nil {
		return nil, err
	}
	n, err := f(cfg.Index)
	if err != nil {
		return nil, err
	}
	return n.(*Node), nil
}

func build(cfg *Config) *Node {
	id := cfg.Index
	if len(cfg.Ids) > 0 {
		id = cfg.Ids[cfg.Index-1]
	}
	n := &Node{cfg: cfg, id: id, state: StateReleased}
	if cfg.Clock == ClockRequests {
		n.clock = 1
	}
	return n
}

// Node is one process. It is not safe for concurrent use: its runtime calls
// Step from one goroutine.
type Node struct {
	cfg   *Config `ringlab:"fixed"` // every clone of the node shares it
	id    int     `ringlab:"fixed"`
	clock int
	state string
	reqT  int     // timestamp of the outstanding request
	acks  int     // ACKs received for it
	queue []Entry `ringlab:"shared"` // sorted by (T, ID); never changed in place, replaced (see Clone)
	later int     // remembered requests (see package doc)
}

// Entry is a queued request.
type Entry struct {
	T, ID int // the request's timestamp and the requester's id
	Index int // the requester's index
}

func (e Entry) before(f Entry) bool { return e.T < f.T || e.T == f.T && e.ID < f.ID }

// Step handles one input.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdRequest:
			n.request(out)
		case node.CmdRelease:
			n.release(out)
		case node.CmdRecover:
			// A rebuilt node starts empty: nothing to redo.
		default:
			out.Note("ignored command %q", in.Cmd)
		}
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		switch {
		case !ok:
		case m.Kind == MsgAcquire:
			n.onAcquire(in.From, m, out)
		case m.Kind == MsgAck:
			n.receive(m)
			n.acks++
			n.maybeEnter(out)
		case m.Kind == MsgRelease:
			n.onRelease(in.From, m, out)
		}
	}
}

// tick moves the clock for an event other than a receipt (the paper's rule
// only).
func (n *Node) tick() {
	if n.cfg.Clock == ClockEveryEvent {
		n.clock++
	}
}

// receive moves the clock past a received message's timestamp (the
// paper's rule; ClockRequests does it for ACQUIRE only, in onAcquire).
func (n *Node) receive(m Msg) {
	if n.cfg.Clock == ClockEveryEvent {
		n.clock = max(n.clock, m.T) + 1
	}
}

// stamp is the timestamp an ACK or RELEASE carries: the clock (the paper's
// rule) or none.
func (n *Node) stamp() int {
	if n.cfg.Clock == ClockEveryEvent {
		return n.clock
	}
	return 0
}

// request: tick, queue (clock, self), ACQUIRE(clock) to every other node.
func (n *Node) request(out *node.Output) {
	if n.state != StateReleased {
		n.later++
		out.Note("request remembered until release: one outstanding request at a time")
		return
	}
	n.tick()
	n.reqT, n.acks = n.clock, 0
	n.insert(Entry{T: n.reqT, ID: n.id, Index: n.cfg.Index})
	n.state = StateWanted
	out.State(n.state)
	for j := 1; j <= n.cfg.N; j++ {
		if j != n.cfg.Index {
			out.Send(j, Msg{Kind: MsgAcquire, T: n.reqT, ID: n.id})
		}
	}
	n.maybeEnter(out)
}

// onAcquire queues the request and answers ACK.
func (n *Node) onAcquire(from int, m Msg, out *node.Output) {
	n.clock = max(n.clock, m.T) + 1
	n.insert(Entry{T: m.T, ID: m.ID, Index: from})
	n.tick()
	out.Send(from, Msg{Kind: MsgAck, T: n.stamp()})
}

// onRelease removes the sender's earliest entry.
func (n *Node) onRelease(from int, m Msg, out *node.Output) {
	n.receive(m)
	if k := slices.IndexFunc(n.queue, func(e Entry) bool { return e.Index == from }); k >= 0 {
		n.queue = slices.Delete(slices.Clone(n.queue), k, k+1)
	}
	n.maybeEnter(out)
}

// maybeEnter: an ACK from every other node and own entry at the head.
func (n *Node) maybeEnter(out *node.Output) {
	if n.state != StateWanted || n.acks < n.cfg.N-1 || n.queue[0].Index != n.cfg.Index {
		return
	}
	n.state = StateHeld
	out.State(n.state)
	out.EnterCS()
}

// release removes own entry and sends RELEASE to all others.
func (n *Node) release(out *node.Output) {
	if n.state != StateHeld {
		out.Note("release ignored: not in the critical section (%s)", n.state)
		return
	}
	n.queue = slices.DeleteFunc(slices.Clone(n.queue), func(e Entry) bool { return e.Index == n.cfg.Index })
	n.state = StateReleased
	out.ExitCS()
	out.State(n.state)
	n.tick()
	for j := 1; j <= n.cfg.N; j++ {
		if j != n.cfg.Index {
			out.Send(j, Msg{Kind: MsgRelease, T: n.stamp()})
		}
	}
	if n.later > 0 {
		n.later--
		n.request(out)
	}
}

func (n *Node) insert(e Entry) {
	k, _ := slices.BinarySearchFunc(n.queue, e, func(a, b Entry) int {
		if a.before(b) {
			return -1
		}
		if b.before(a) {
			return 1
		}
		return 0
	})
	n.queue = slices.Concat(n.queue[:k], []Entry{e}, n.queue[k:])
}

// Status is a snapshot of a node for checkers and tests.
type Status struct {
	ID       int
	State    string
	Clock    int
	RequestT int     // timestamp of the outstanding (or last) request
	Acks     int     // ACKs received for it
	Queue    []Entry // the request queue, head first
}

// Clock is the node's Lamport clock: the exhaustive checker's --max-clock
// bounds it.
func (n *Node) Clock() int { return n.clock }

// Status returns a snapshot of the node.
func (n *Node) Status() Status {
	return Status{ID: n.id, State: n.state, Clock: n.clock, RequestT: n.reqT, Acks: n.acks, Queue: slices.Clone(n.queue)}
}
