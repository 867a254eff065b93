// Package raymond is K. Raymond's tree-based token algorithm for
// distributed mutual exclusion ("A tree-based algorithm for distributed
// mutual exclusion", ACM TOCS 7(1), 1989), written against ringlab's
// public engine as a state struct and a Step, and nothing else: no Clone,
// no AppendKey, no reduction code. The engine derives the copy and the
// identity of a state from the Go value.
//
// The nodes form a fixed spanning tree (a Tree, given to New); only
// neighbours in the tree exchange messages. One token, the privilege to
// enter the critical section, starts at the tree's root. Every node keeps
// Holder, the neighbour on its path to the token (itself when it holds
// it), so the Holder pointers always form a tree directed towards the
// token. A node that wants the token, for itself or for a neighbour that
// asked it, queues the request and sends one REQUEST towards the token;
// the holder passes the PRIVILEGE down the path the requests came up,
// reversing the Holder pointers as it goes.
//
// An entry costs at most 2·D messages on a tree of diameter D (D REQUESTs
// up, D PRIVILEGEs down), and O(log N) on a balanced tree; under load a
// REQUEST is often not needed, and the cost per entry falls.
package raymond

import "ringlab/engine/node"

// Request asks a neighbour, the sender's Holder, for the token on behalf
// of the sender or of one of the sender's other neighbours.
type Request struct{}

// Privilege is the token.
type Privilege struct{}

// Type is "REQUEST".
func (Request) Type() string { return "REQUEST" }

// Type is "PRIVILEGE".
func (Privilege) Type() string { return "PRIVILEGE" }

// TokenID names the token, "T", as the one-token property follows it
// (there is only one).
func (Privilege) TokenID() string { return "T" }

// MessageTypes is one value of every message type a node sends, the
// registry the broker's codec and the log readers decode by.
func MessageTypes() []node.Msg { return []node.Msg{Request{}, Privilege{}} }

// The states a node announces (node.Output.State), for the traces.
const (
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
	StateReleased = "RELEASED"
)

// Node is one process of the tree: its state is all there is. The fields
// tagged ringlab:"fixed" are set when the node is built and never
// change: the engine shares them between copies and leaves them out of a
// state's identity.
type Node struct {
	Self   int   `ringlab:"fixed"` // this node's index
	Holder int   // Self while this node holds the token, else the neighbour towards it
	Queue  []int // who waits for the token here, oldest first: Self or neighbours that sent a REQUEST
	Using  bool  // in the critical section
	Asked  bool  // a REQUEST went to Holder and the token has not come since
	// ForgetAsked is the planted bug: the holder that passes the token on
	// leaves Asked set, so a node that has asked once never asks again.
	ForgetAsked bool `ringlab:"fixed"`
}

// Config is what every node of one system is built from.
type Config struct {
	Tree        Tree // the spanning tree; its root starts with the token
	ForgetAsked bool // the planted bug (Node.ForgetAsked)
}

// New builds node i of c.Tree (which Tree.Validate accepts) in its
// initial state: the root holds the token, every other node points to
// its parent.
func New(c Config, i int) *Node {
	holder := c.Tree[i-1]
	if holder == 0 {
		holder = i
	}
	return &Node{Self: i, Holder: holder, ForgetAsked: c.ForgetAsked}
}

// Step handles one input: a local request or release (node.CmdRequest,
// node.CmdRelease), a neighbour's REQUEST or the PRIVILEGE. After each it
// does the paper's ASSIGN_PRIVILEGE and MAKE_REQUEST. A request from a
// node that already waits or is in the critical section is ignored (with a
// note): a node asks once at a time. node.CmdStart, which a runtime gives
// the root before any request, only announces the token ("token T
// created", for the one-token property) if the root still holds it.
// Other inputs change nothing.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		if n.Holder == n.Self {
			out.Note("token %s created", Privilege{}.TokenID())
		}
		return
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		if n.Using || n.waiting() {
			out.NoteText("request ignored: this node already asked")
			return
		}
		out.State(StateWanted)
		n.Queue = append(n.Queue, n.Self)
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease:
		if !n.Using {
			out.NoteText("release ignored: not in the critical section")
			return
		}
		n.Using = false
		out.ExitCS()
		out.State(StateReleased)
	case in.Kind == node.InMsg && in.Msg.Type() == "REQUEST":
		n.Queue = append(n.Queue, in.From)
	case in.Kind == node.InMsg && in.Msg.Type() == "PRIVILEGE":
		n.Holder = n.Self
	default:
		return
	}
	n.assignPrivilege(out)
	n.makeRequest(out)
}

// waiting reports whether this node's own request is queued.
func (n *Node) waiting() bool {
	for _, q := range n.Queue {
		if q == n.Self {
			return true
		}
	}
	return false
}

// assignPrivilege is the paper's ASSIGN_PRIVILEGE: a holder that is not
// using the token gives it to the oldest request, itself or a neighbour.
func (n *Node) assignPrivilege(out *node.Output) {
	if n.Holder != n.Self || n.Using || len(n.Queue) == 0 {
		return
	}
	head := n.Queue[0]
	n.Queue = n.Queue[1:]
	n.Asked = n.Asked && n.ForgetAsked
	if head == n.Self {
		n.Using = true
		out.EnterCS()
		out.State(StateHeld)
		return
	}
	n.Holder = head
	out.Send(head, Privilege{})
}

// makeRequest is the paper's MAKE_REQUEST: a node without the token that
// has requests queued asks its Holder once.
func (n *Node) makeRequest(out *node.Output) {
	if n.Holder == n.Self || len(n.Queue) == 0 || n.Asked {
		return
	}
	n.Asked = true
	out.Send(n.Holder, Request{})
}
