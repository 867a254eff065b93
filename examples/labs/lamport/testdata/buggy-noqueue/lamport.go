// Package lamport is Lamport's distributed mutual exclusion (Lamport 1978,
// "Time, clocks, and the ordering of events in a distributed system") on a
// complete graph of N nodes: a submission that enters as soon as every
// ACK is in, without looking at its queue.
//
// Each node keeps a Lamport clock and a queue of requests ordered by
// (timestamp, id). To enter, a node ticks, queues its own request and sends
// ACQUIRE(T, id) to every other node. A node that receives ACQUIRE queues
// the request and answers ACK. A node enters when it is at the head of its
// own queue and holds an ACK from every other node, each sent after that
// node received its ACQUIRE. On exit it drops its own request and sends
// RELEASE to all; a node that receives RELEASE drops the sender's request.
//
// The algorithm needs FIFO links: an ACK says "every request I sent before
// this is already in your queue" only if it cannot overtake them.
package lamport

import (
	"fmt"
	"slices"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
)

// Kind is a message kind.
type Kind string

// Message kinds.
const (
	MsgAcquire Kind = "ACQUIRE" // ACQUIRE(T, id): queue my request
	MsgAck     Kind = "ACK"     // your request is in my queue
	MsgRelease Kind = "RELEASE" // drop my request: I have left
)

// Msg is a message of Lamport's algorithm.
type Msg struct {
	Kind Kind `json:"kind"`
	T    int  `json:"t"`            // the sender's clock (ACQUIRE: the request's timestamp)
	ID   int  `json:"id,omitempty"` // ACQUIRE: the requester's id (breaks ties)
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// MessageTypes lists one value of every message type a node sends.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgAcquire}, Msg{Kind: MsgAck}, Msg{Kind: MsgRelease}}
}

// States, named as in Ricart-Agrawala.
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// Entry is a queued request: its timestamp and the requester's id.
type Entry struct{ T, ID int }

// before reports whether request e comes before f: the lower timestamp,
// the lower id on a tie.
func (e Entry) before(f Entry) bool { return e.T < f.T || e.T == f.T && e.ID < f.ID }

// Node is one process; its id is its index. The engine copies and keys it
// by its fields.
type Node struct {
	n, id int
	clock int
	state string
	reqT  int     // the timestamp of this node's outstanding request
	acks  int     // ACKs received for it
	queue []Entry // every request this node knows of, in (T, id) order
}

// New builds node i of n, RELEASED, with clock 0 and an empty queue.
func New(n, i int) node.Node { return &Node{n: n, id: i, state: StateReleased} }

// Algorithm is the lab's algorithm value, for every tool: the
// mutual-exclusion kit gives it the workload (--requests) and the
// properties, the grant order among them: Lamport's algorithm promises to
// grant requests in (timestamp, id) order, the stamp each ACQUIRE carries.
func Algorithm() engine.Algorithm {
	return kit.Spec{
		Name: "lamport", Usage: "Lamport's mutual exclusion: a request queue in (timestamp, id) order, ACK, RELEASE",
		NodesUsage: "nodes, all asking for the critical section",
		Plan: func(_ engine.Params, n, _ int) (kit.Plan, error) {
			return kit.Plan{Kind: kit.Permission, Nodes: n, Messages: MessageTypes(),
				Factory: func(i int) (node.Node, error) {
					if i < 1 || i > n {
						return nil, fmt.Errorf("lamport: node index must be 1..%d, got %d", n, i)
					}
					return New(n, i), nil
				},
				Order:  kit.Order{Kinds: trace.KindsOf(trace.KindSend), Key: acquireStamp},
				Strict: true, Promise: "(timestamp, id) order"}, nil
		},
	}.Algorithm()
}

// acquireStamp reads a request's (timestamp, id) from the first ACQUIRE
// its node sends for it.
func acquireStamp(e *trace.Event) (int, kit.Key, bool) {
	if e.Kind != trace.KindSend || e.Msg == nil {
		return 0, kit.Key{}, false
	}
	m, ok := e.Msg.Value.(Msg)
	if !ok || m.Kind != MsgAcquire {
		return 0, kit.Key{}, false
	}
	return e.Node, kit.Key{int64(m.T), int64(m.ID)}, true
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
		if !ok {
			return
		}
		nd.clock = max(nd.clock, m.T) + 1 // every receipt moves the clock past the sender's
		switch m.Kind {
		case MsgAcquire:
			nd.onAcquire(in.From, m, out)
		case MsgAck:
			nd.onAck(out)
		case MsgRelease:
			nd.onRelease(in.From, out)
		}
	}
}

// request is enter(): tick, queue (clock, id), WANTED, ACQUIRE to every
// other node.
func (nd *Node) request(out *node.Output) {
	if nd.state != StateReleased {
		return
	}
	nd.clock++
	nd.reqT, nd.acks, nd.state = nd.clock, 0, StateWanted
	nd.insert(Entry{T: nd.reqT, ID: nd.id})
	out.State(nd.state)
	for j := 1; j <= nd.n; j++ {
		if j != nd.id {
			out.Send(j, Msg{Kind: MsgAcquire, T: nd.reqT, ID: nd.id})
		}
	}
	nd.maybeEnter(out)
}

// onAcquire queues the request and answers ACK.
func (nd *Node) onAcquire(from int, m Msg, out *node.Output) {
	nd.insert(Entry{T: m.T, ID: m.ID})
	out.Send(from, Msg{Kind: MsgAck, T: nd.clock})
}

// onAck counts an ACK; it may be the last one this node waits for.
func (nd *Node) onAck(out *node.Output) {
	if nd.state != StateWanted {
		return
	}
	nd.acks++
	nd.maybeEnter(out)
}

// onRelease drops the sender's request; this node's may now be the head.
func (nd *Node) onRelease(from int, out *node.Output) {
	nd.drop(from)
	nd.maybeEnter(out)
}

// maybeEnter lets a WANTED node in when it has an ACK from every other
// node and its own request heads its queue.
func (nd *Node) maybeEnter(out *node.Output) {
	if nd.state != StateWanted || nd.acks < nd.n-1 {
		return
	}
	nd.state = StateHeld
	out.State(nd.state)
	out.EnterCS()
}

// release is exit(): RELEASED, drop its own request, RELEASE to every
// other node.
func (nd *Node) release(out *node.Output) {
	if nd.state != StateHeld {
		return
	}
	nd.state = StateReleased
	out.ExitCS()
	out.State(nd.state)
	nd.drop(nd.id)
	nd.clock++
	for j := 1; j <= nd.n; j++ {
		if j != nd.id {
			out.Send(j, Msg{Kind: MsgRelease, T: nd.clock})
		}
	}
}

// insert puts e in the queue at its place in (T, id) order. The queue is
// replaced, never changed in place.
func (nd *Node) insert(e Entry) {
	k := 0
	for k < len(nd.queue) && nd.queue[k].before(e) {
		k++
	}
	nd.queue = slices.Concat(nd.queue[:k], []Entry{e}, nd.queue[k:])
}

// drop removes the earliest request of node id from the queue.
func (nd *Node) drop(id int) {
	for k, e := range nd.queue {
		if e.ID == id {
			nd.queue = slices.Concat(nd.queue[:k], nd.queue[k+1:])
			return
		}
	}
}
