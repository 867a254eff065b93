// Package central is mutual exclusion by a central coordinator, as the course
// chapter on mutual exclusion gives it.
//
// One node, the coordinator (node 1 unless Config.Coordinator says otherwise),
// guards the resource; every other node is a participant. A participant sends
// RequestAccess, waits for ResponseOK, uses the critical section (CS) and
// sends RequestFree; the coordinator queues requests, answers each
// RequestFree with ResponseFree, and whenever the resource is free and the
// queue is not empty it pops the first participant, sends it ResponseOK and
// marks the resource busy. Every entry costs exactly 4 messages, as in the
// chapter's diagrams: RequestAccess, ResponseOK, RequestFree, ResponseFree.
//
// Decisions the chapter leaves open:
//   - With n >= 2 the coordinator is a pure coordinator: it never asks for the
//     CS itself (a CmdRequest given to it is noted and ignored). n must be >= 2.
//   - A participant has one request outstanding at a time. A CmdRequest that
//     arrives while it waits, holds the CS or waits for ResponseFree is counted
//     and served, in order, after the ResponseFree of the current one. Sending
//     the next RequestAccess only after ResponseFree keeps a participant's
//     RequestFree ahead of its next RequestAccess even on reordering links.
//   - Config.Timeout (ticks, 0 = never) is the chapter's "solution": the
//     coordinator takes the permission back from a holder that has not
//     released within Timeout ticks of being granted it, and grants the next.
//     Right when the holder really crashed; a mutual-exclusion violation when
//     it was only slow. A late RequestFree from a holder whose permission was
//     taken back is acknowledged with ResponseFree but does not free the
//     resource (it is not the process the coordinator authorized: the chapter's
//     quorum release rule).
//   - A RequestAccess from a participant already queued or holding the
//     permission (a duplicated message) is ignored. Without request ids the
//     protocol is not safe against duplicates arriving later; quorum has ids.
//
// States: participants RELEASED, WANTED, HELD; the coordinator FREE and BUSY
// (the chapter's "Recurso=livre/ocupado").
//
// The tests check: the chapter's three-participant diagram step by step, exactly
// 4 messages per entry, mutual exclusion and that every request is served
// over many random delivery orders, and both timeout scenarios of the chapter
// (crashed holder: safe; slow holder: two nodes in the CS, detected).
package central

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ringlab/engine/node"
)

// Kind is the kind of a message, named as in the chapter.
type Kind uint8

// The four messages of the chapter's diagrams.
const (
	MsgRequestAccess Kind = iota + 1 // participant -> coordinator: I want the CS
	MsgResponseOK                    // coordinator -> participant: go in
	MsgRequestFree                   // participant -> coordinator: I left the CS
	MsgResponseFree                  // coordinator -> participant: release noted
)

var kindNames = [...]string{
	MsgRequestAccess: "RequestAccess", MsgResponseOK: "ResponseOK",
	MsgRequestFree: "RequestFree", MsgResponseFree: "ResponseFree",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MarshalText makes traces show the kind by name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind by name, so that a message decodes in one
// call (a node process's codec, a log read back).
func (k *Kind) UnmarshalText(b []byte) error {
	for i, name := range kindNames {
		if name != "" && name == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown message kind %q", b)
}

// Msg is a message between a participant and the coordinator.
type Msg struct {
	Kind Kind `json:"kind"`
}

// Type returns the chapter's name of the message.
func (m Msg) Type() string { return m.Kind.String() }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgRequestAccess}, Msg{Kind: MsgResponseOK}, Msg{Kind: MsgRequestFree}, Msg{Kind: MsgResponseFree}}
}

// States, with the names the tests and traces use.
const (
	StateReleased = "RELEASED" // participant: not interested
	StateWanted   = "WANTED"   // participant: RequestAccess sent
	StateHeld     = "HELD"     // participant: in the CS
	StateFree     = "FREE"     // coordinator: resource free
	StateBusy     = "BUSY"     // coordinator: resource granted to someone
)

// timerTimeout is the coordinator's timer on the current holder.
const timerTimeout = 1

// Config configures a run; Index selects the node New builds.
type Config struct {
	N           int   // number of nodes, >= 2
	Index       int   // this node, 1..N (set by Factory)
	Coordinator int   // the coordinator's index, 1..N; 0 means 1
	Timeout     int64 // ticks before the coordinator takes the permission back; 0 = never
	// Favour is a bias, not the chapter's algorithm: the coordinator
	// serves a queued participant of index <= Favour before the others,
	// whatever the order requests arrived in (0: first come, first served).
	// Two favoured participants taking turns starve the others.
	Favour int
	// Name gives node i's display name for the notes that name a node
	// other than the sender of the message just received (which the trace
	// names), so that they name it as the trace does; nil: "node i".
	Name func(i int) string
}

// name is node i's display name in a note.
func (c Config) name(i int) string {
	if c.Name == nil {
		return "node " + strconv.Itoa(i)
	}
	return c.Name(i)
}

func (c Config) validate() error {
	if c.N < 2 {
		return fmt.Errorf("central needs at least 2 nodes (a coordinator and a participant), got %d", c.N)
	}
	if c.Coordinator < 0 || c.Coordinator > c.N {
		return fmt.Errorf("coordinator %d: must be a node index 1..%d (0 means 1)", c.Coordinator, c.N)
	}
	if c.Favour < 0 || c.Favour > c.N {
		return fmt.Errorf("favour %d: must be 0 (none) or a node index 1..%d", c.Favour, c.N)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("timeout %d: must be 0 (never) or a positive number of ticks", c.Timeout)
	}
	return nil
}

// Factory validates cfg once and returns a node.Factory for its N nodes.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return func(i int) (node.Node, error) {
		c := cfg
		c.Index = i
		return New(c)
	}, nil
}

// Node is one node: the coordinator or a participant.
type Node struct {
	cfg Config `ringlab:"fixed"`

	// participant
	state   string
	pending int  // further CmdRequests to serve after this one
	freeing bool // RequestFree sent, ResponseFree not back yet

	// coordinator
	busy   bool
	holder int
	queue  []int // never changed in place, so clones share it (Clone)
}

// New builds node cfg.Index in its initial state.
func New(cfg Config) (*Node, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Index < 1 || cfg.Index > cfg.N {
		return nil, fmt.Errorf("node index %d: must be 1..%d", cfg.Index, cfg.N)
	}
	if cfg.Coordinator == 0 {
		cfg.Coordinator = 1
	}
	return &Node{cfg: cfg, state: StateReleased}, nil
}

// TimerName says what the coordinator's timer means (node.TimerNamer).
func (n *Node) TimerName(id int) string {
	if id == timerTimeout {
		return "grant timeout"
	}
	return ""
}

// IsCoordinator reports whether this node is the coordinator.
func (n *Node) IsCoordinator() bool { return n.cfg.Index == n.cfg.Coordinator }

// Step handles one input.
func (n *Node) Step(in node.Input, out *node.Output) {
	if n.IsCoordinator() {
		n.stepCoordinator(in, out)
		out.Done = !n.busy && len(n.queue) == 0
		return
	}
	n.stepParticipant(in, out)
	out.Done = n.state == StateReleased && !n.freeing && n.pending == 0
}

func (n *Node) stepCoordinator(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		if !ok || (m.Kind != MsgRequestAccess && m.Kind != MsgRequestFree) {
			out.Note("coordinator: unexpected %v ignored", in.Msg)
			return
		}
		if m.Kind == MsgRequestAccess {
			n.enqueue(in.From, out)
		} else {
			n.onRequestFree(in.From, out)
		}
		n.grant(out)
	case node.InTick:
		if in.Timer == timerTimeout && n.busy {
			out.Note("timeout: permission taken back from %s", n.cfg.name(n.holder))
			n.free(out)
			n.grant(out)
		}
	case node.InCmd:
		if in.Cmd == node.CmdRecover {
			out.Note("coordinator recovered with amnesia: resource free, queue empty")
			return
		}
		out.Note("the coordinator does not use the CS: command %q ignored", in.Cmd)
	}
}

// enqueue queues a request; a participant already queued or holding the
// permission (a duplicated message) is not queued twice.
func (n *Node) enqueue(p int, out *node.Output) {
	if (n.busy && n.holder == p) || slices.Contains(n.queue, p) {
		out.Note("RequestAccess ignored: its sender already holds the permission or is queued")
		return
	}
	n.queue = slices.Concat(n.queue, []int{p})
}

// onRequestFree acknowledges every release but frees the resource only for
// the process the coordinator authorized.
func (n *Node) onRequestFree(from int, out *node.Output) {
	out.Send(from, Msg{Kind: MsgResponseFree})
	if n.busy && n.holder == from {
		n.free(out)
		return
	}
	out.Note("RequestFree ignored: its sender does not hold the permission")
}

func (n *Node) free(out *node.Output) {
	n.busy, n.holder = false, 0
	out.StopTimer(timerTimeout)
	out.State(StateFree)
}

// grant serves the queue while the resource is free.
func (n *Node) grant(out *node.Output) {
	if n.busy || len(n.queue) == 0 {
		return
	}
	next := 0
	if k := slices.IndexFunc(n.queue, func(p int) bool { return p <= n.cfg.Favour }); k >= 0 {
		next = k // the bias: a favoured participant jumps the queue
	}
	n.holder = n.queue[next]
	n.queue = slices.Delete(slices.Clone(n.queue), next, next+1)
	n.busy = true
	out.Send(n.holder, Msg{Kind: MsgResponseOK})
	out.State(StateBusy)
	if n.cfg.Timeout > 0 {
		out.SetTimer(timerTimeout, n.cfg.Timeout)
	}
}

// Status is a snapshot for checkers and tests.
type Status struct {
	State   string // participant state, or FREE/BUSY for the coordinator
	Holder  int    // coordinator: the node it authorized, 0 if none
	Queue   []int  // coordinator: waiting participants, first to be served first
	Pending int    // participant: further requests queued locally
}

// Status returns a snapshot of the node.
func (n *Node) Status() Status {
	if n.IsCoordinator() {
		s := Status{State: StateFree, Holder: n.holder, Queue: append([]int(nil), n.queue...)}
		if n.busy {
			s.State = StateBusy
		}
		return s
	}
	return Status{State: n.state, Pending: n.pending}
}

// Show implements node.Shower: the coordinator by FREE or BUSY, the node
// it granted and its queue by name; a participant by its state, the
// requests it still has to make and whether its release is on its way.
func (n *Node) Show(name func(i int) string) node.Shown {
	s := n.Status()
	if !n.IsCoordinator() {
		return node.Shown{State: s.State, Fields: []node.Field{
			{Name: "pending", Value: strconv.Itoa(s.Pending)},
			{Name: "freeing", Value: strconv.FormatBool(n.freeing)},
		}}
	}
	holder, queue := "none", "none"
	if s.Holder != 0 {
		holder = name(s.Holder)
	}
	if len(s.Queue) > 0 {
		names := make([]string, len(s.Queue))
		for k, i := range s.Queue {
			names[k] = name(i)
		}
		queue = strings.Join(names, ", ")
	}
	return node.Shown{State: s.State, Fields: []node.Field{{Name: "holder", Value: holder}, {Name: "queue", Value: queue}}}
}
