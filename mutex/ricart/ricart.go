// Package ricart is Ricart and Agrawala's distributed mutual exclusion
// (Ricart & Agrawala 1981) on a complete graph of N nodes.
//
// Each node keeps a Lamport clock: it ticks on the request, and on every
// receipt clock = max(clock, received) + 1. To enter, a node goes WANTED,
// sends Request(T, id) to all N-1 others and waits for N-1 Replies; then it is
// HELD. A node that receives Request(Tj, j) defers it when it is HELD, or
// WANTED with (Ti, i) < (Tj, j) (lower timestamp first, lower id breaks ties);
// otherwise it replies at once. On exit it goes RELEASED and replies to every
// deferred request.
//
// Messages per entry: exactly 2(N-1) (MessagesPerEntry). Two options
// reproduce the course's variant: Config.ReleaseBroadcast also sends RELEASE to every
// other node on exit, 3(N-1) per entry; Config.TimeoutAsReply counts a peer
// that has not replied within Config.Timeout ticks as having replied, which
// breaks mutual exclusion when the peer is only slow (the tests show two
// nodes in the CS at once).
//
// Decisions the algorithm leaves open: a node has one outstanding request at a
// time; a CmdRequest while WANTED or HELD is remembered and issued, in order,
// right after the next release. A CmdRelease when not HELD is ignored (with a
// note). A Reply names the request it answers (ReqT), so that a late reply
// after a timeout is never counted for a later request. A CmdRequest with
// Arg T (RequestAt) is the request of scenarios that need a given timestamp
// (115 and 110 in the Ricart-Agrawala example with N32, N12 and N80): the
// clock jumps forward so the request gets timestamp T, or
// clock+1 if the clock is already at T or beyond (a Lamport clock never goes
// back).
//
// The tests check, over fully random delivery orders: mutual exclusion, every
// request granted, entries in (timestamp, id) order, and exact message counts;
// and both worked examples step by step.
package ricart

import (
	"slices"

	"ringlab/engine/node"
)

// Kind is a message kind.
type Kind string

// Message kinds.
const (
	MsgRequest Kind = "REQUEST" // Request(T, id): may I enter?
	MsgReply   Kind = "REPLY"   // the permission, for the request with timestamp ReqT
	MsgRelease Kind = "RELEASE" // the course variant's release notification (Config.ReleaseBroadcast)
)

// Msg is a Ricart-Agrawala message.
type Msg struct {
	Kind Kind `json:"kind"`
	T    int  `json:"t"`               // REQUEST: the request's timestamp; else the sender's clock
	ID   int  `json:"id"`              // REQUEST: the requester's id (breaks ties)
	ReqT int  `json:"req_t,omitempty"` // REPLY: the timestamp of the request it answers
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// Stamp is the (timestamp, id) the message carries: the order of requests
// the algorithm promises to grant in.
func (m Msg) Stamp() (t, id int) { return m.T, m.ID }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgRequest}, Msg{Kind: MsgReply}, Msg{Kind: MsgRelease}}
}

// States, with the source's names.
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// timerReplies is the id of the TimeoutAsReply timer.
const timerReplies = 1

func build(cfg *Config) *Node {
	id := cfg.Index
	if len(cfg.Ids) > 0 {
		id = cfg.Ids[cfg.Index-1]
	}
	return &Node{cfg: cfg, id: id, state: StateReleased, replied: make([]bool, cfg.N+1)}
}

// Node is one Ricart-Agrawala process. It is not safe for concurrent use:
// its runtime calls Step from one goroutine.
//
// Its slices are never changed in place: a step that changes one builds a
// new one, so a clone shares them (Clone).
type Node struct {
	cfg   *Config `ringlab:"fixed"` // every clone of the node shares it
	id    int     `ringlab:"fixed"`
	clock int
	state string
	reqT  int // timestamp of the outstanding request
	// The slices are never changed in place, only replaced, so that a
	// copy shares them (`ringlab:"shared"`, and Clone).
	replied  []bool    `ringlab:"shared"` // by index: a Reply to reqT arrived (or timed out)
	nReplies int       // how many
	deferred []pending `ringlab:"shared"` // requests to answer on exit, in arrival order
	later    []int     `ringlab:"shared"` // remembered requests' timestamp floors (see package doc)
}

type pending struct{ from, t int }

// Step handles one input.
// TimerName says what the node's timer means (node.TimerNamer).
func (n *Node) TimerName(id int) string {
	if id == timerReplies {
		return "reply timeout"
	}
	return ""
}

func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		n.command(in.Cmd, in.Arg, out)
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		switch {
		case !ok:
		case m.Kind == MsgRequest:
			n.onRequest(in.From, m, out)
		case m.Kind == MsgReply:
			n.onReply(in.From, m, out)
		case m.Kind == MsgRelease:
			n.clock = max(n.clock, m.T) + 1
		}
	case node.InTick:
		if in.Timer == timerReplies {
			n.onTimeout(out)
		}
	}
}

// command carries out c; a request's arg is its timestamp floor (0: none).
func (n *Node) command(c node.Cmd, arg int, out *node.Output) {
	switch c {
	case node.CmdRequest:
		n.request(max(arg, 0), out)
	case node.CmdRelease:
		n.release(out)
	case node.CmdRecover:
		// A rebuilt node starts RELEASED with clock 0: nothing to redo.
	default:
		out.Note("ignored command %q", c)
	}
}

// request is enter(): WANTED, tick, Request(T, id) to all others.
func (n *Node) request(floor int, out *node.Output) {
	if n.state != StateReleased {
		n.later = slices.Concat(n.later, []int{floor})
		out.Note("request remembered until release: one outstanding request at a time")
		return
	}
	n.clock = max(n.clock, floor-1) + 1
	n.reqT = n.clock
	n.state = StateWanted
	out.State(n.state)
	n.replied = make([]bool, n.cfg.N+1)
	n.nReplies = 0
	for j := 1; j <= n.cfg.N; j++ {
		if j != n.cfg.Index {
			out.Send(j, Msg{Kind: MsgRequest, T: n.reqT, ID: n.id})
		}
	}
	if n.cfg.TimeoutAsReply {
		out.SetTimer(timerReplies, n.cfg.Timeout)
	}
	n.maybeEnter(out)
}

// onRequest defers when HELD, or WANTED with the earlier (T, id); else replies.
func (n *Node) onRequest(from int, m Msg, out *node.Output) {
	n.clock = max(n.clock, m.T) + 1
	if n.state == StateHeld || n.state == StateWanted && Before(n.reqT, n.id, m.T, m.ID) {
		n.deferred = slices.Concat(n.deferred, []pending{{from: from, t: m.T}})
		return
	}
	out.Send(from, Msg{Kind: MsgReply, T: n.clock, ReqT: m.T})
}

func (n *Node) onReply(from int, m Msg, out *node.Output) {
	n.clock = max(n.clock, m.T) + 1
	if n.state != StateWanted || m.ReqT != n.reqT || n.replied[from] {
		return // late: the request it answers was already granted by timeout
	}
	n.replied = slices.Clone(n.replied)
	n.replied[from] = true
	n.nReplies++
	n.maybeEnter(out)
}

// onTimeout is the course variant's fault handling: silent peers count as
// replies.
func (n *Node) onTimeout(out *node.Output) {
	if n.state != StateWanted {
		return
	}
	n.replied = slices.Clone(n.replied)
	for j := 1; j <= n.cfg.N; j++ {
		if j != n.cfg.Index && !n.replied[j] {
			out.Note("no reply from %s within %d ticks: counted as a reply", n.cfg.name(j), n.cfg.Timeout)
			n.replied[j] = true
			n.nReplies++
		}
	}
	n.maybeEnter(out)
}

func (n *Node) maybeEnter(out *node.Output) {
	if n.nReplies < n.cfg.N-1 {
		return
	}
	if n.cfg.TimeoutAsReply {
		out.StopTimer(timerReplies)
	}
	n.state = StateHeld
	out.State(n.state)
	out.EnterCS()
}

// release is exit(): RELEASED, reply to every deferred request.
func (n *Node) release(out *node.Output) {
	if n.state != StateHeld {
		out.Note("release ignored: not in the critical section (%s)", n.state)
		return
	}
	n.state = StateReleased
	out.ExitCS()
	out.State(n.state)
	for _, p := range n.deferred {
		out.Send(p.from, Msg{Kind: MsgReply, T: n.clock, ReqT: p.t})
	}
	n.deferred = nil
	if n.cfg.ReleaseBroadcast {
		for j := 1; j <= n.cfg.N; j++ {
			if j != n.cfg.Index {
				out.Send(j, Msg{Kind: MsgRelease, T: n.clock})
			}
		}
	}
	if len(n.later) > 0 {
		floor := n.later[0]
		n.later = n.later[1:]
		n.request(floor, out)
	}
}

// Before reports whether request (t1, id1) precedes (t2, id2): lower
// timestamp first, lower id breaks ties.
func Before(t1, id1, t2, id2 int) bool { return t1 < t2 || t1 == t2 && id1 < id2 }

// Status is a snapshot of a node for checkers and tests.
type Status struct {
	ID       int
	State    string
	Clock    int
	RequestT int   // timestamp of the outstanding (or last) request
	Replies  int   // replies counted for it
	Deferred []int // indices of the deferred requesters, in arrival order
}

// Clock is the node's Lamport clock: the exhaustive checker's --max-clock
// bounds it.
func (n *Node) Clock() int { return n.clock }

// Status returns a snapshot of the node.
func (n *Node) Status() Status {
	s := Status{ID: n.id, State: n.state, Clock: n.clock, RequestT: n.reqT, Replies: n.nReplies}
	for _, p := range n.deferred {
		s.Deferred = append(s.Deferred, p.from)
	}
	return s
}
