// Package ricart is Ricart and Agrawala's distributed mutual exclusion
// (Ricart & Agrawala 1981) on a complete graph of N nodes: the reference
// solution of the assignment.
//
// Each node keeps a Lamport clock. To enter, a node goes WANTED, ticks,
// sends Request(T, id) to all N-1 others and waits for N-1 replies; then
// it is HELD. A node that receives Request(Tj, j) defers it when it is
// HELD, or WANTED with (Ti, i) < (Tj, j) (lower timestamp first, lower id
// breaks ties); otherwise it replies at once. On exit it goes RELEASED and
// replies to every deferred request.
package ricart

import (
	"slices"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// Kind is a message kind.
type Kind string

// Message kinds.
const (
	MsgRequest Kind = "REQUEST" // Request(T, id): may I enter?
	MsgReply   Kind = "REPLY"   // the permission
)

// Msg is a Ricart-Agrawala message.
type Msg struct {
	Kind Kind `json:"kind"`
	T    int  `json:"t"`            // REQUEST: the request's timestamp; REPLY: the sender's clock
	ID   int  `json:"id,omitempty"` // REQUEST: the requester's id (breaks ties)
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// MessageTypes lists one value of every message type a node sends.
func MessageTypes() []node.Msg { return []node.Msg{Msg{Kind: MsgRequest}, Msg{Kind: MsgReply}} }

// States, with the paper's names.
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// Node is one Ricart-Agrawala process; its id is its index.
type Node struct {
	n, id    int
	clock    int
	state    string
	reqT     int   // the timestamp of the outstanding request
	replies  int   // replies to it so far
	deferred []int // the nodes whose requests wait for this node's exit, in arrival order
}

// New builds node i of n, RELEASED with clock 0.
func New(n, i int) node.Node { return &Node{n: n, id: i, state: StateReleased} }

// Algorithm is the assignment's algorithm value, for every tool: the
// mutual-exclusion kit gives it the workload (--requests) and the
// properties.
func Algorithm() engine.Algorithm {
	return kit.Algorithm("ricart-agrawala", kit.Permission, New, MessageTypes()...)
}

// Step handles one input.
func (nd *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdRequest:
			nd.request(out)
		case node.CmdRelease:
			nd.release(out)
		}
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		switch {
		case !ok:
		case m.Kind == MsgRequest:
			nd.onRequest(in.From, m, out)
		case m.Kind == MsgReply:
			nd.onReply(m, out)
		}
	}
}

// request is enter(): WANTED, tick, Request(T, id) to every other node.
func (nd *Node) request(out *node.Output) {
	nd.clock++
	nd.reqT, nd.replies, nd.state = nd.clock, 0, StateWanted
	out.State(nd.state)
	for j := 1; j <= nd.n; j++ {
		if j != nd.id {
			out.Send(j, Msg{Kind: MsgRequest, T: nd.reqT, ID: nd.id})
		}
	}
}

// onRequest defers the request when HELD, or WANTED with the earlier
// (T, id); else replies at once.
func (nd *Node) onRequest(from int, m Msg, out *node.Output) {
	nd.clock = max(nd.clock, m.T) + 1
	if nd.state == StateHeld || nd.state == StateWanted && before(nd.reqT, nd.id, m.T, m.ID) {
		nd.deferred = append(nd.deferred, from)
		return
	}
	out.Send(from, Msg{Kind: MsgReply, T: nd.clock})
}

// onReply counts a reply; the last one lets the node in.
func (nd *Node) onReply(m Msg, out *node.Output) {
	nd.clock = max(nd.clock, m.T) + 1
	if nd.state != StateWanted {
		return
	}
	nd.replies++
	if nd.replies == nd.n-1 {
		nd.state = StateHeld
		out.State(nd.state)
		out.EnterCS()
	}
}

// release is exit(): RELEASED, and a reply to every deferred request.
func (nd *Node) release(out *node.Output) {
	if nd.state != StateHeld {
		return
	}
	nd.state = StateReleased
	out.ExitCS()
	out.State(nd.state)
	for _, j := range nd.deferred {
		out.Send(j, Msg{Kind: MsgReply, T: nd.clock})
	}
	nd.deferred = nd.deferred[:0]
}

// before reports whether request (t1, id1) precedes (t2, id2).
func before(t1, id1, t2, id2 int) bool { return t1 < t2 || t1 == t2 && id1 < id2 }

// Clone returns an independent copy of the node (the exhaustive checker's
// snapshot).
func (nd *Node) Clone() node.Node {
	c := *nd
	c.deferred = slices.Clone(nd.deferred)
	return &c
}

// AppendKey encodes every field a step depends on (n and id are fixed).
func (nd *Node) AppendKey(b []byte) []byte {
	b = node.AppendInt(b, nd.clock)
	b = node.AppendString(b, nd.state)
	b = node.AppendInt(b, nd.reqT)
	b = node.AppendInt(b, nd.replies)
	return node.AppendInts(b, nd.deferred)
}
