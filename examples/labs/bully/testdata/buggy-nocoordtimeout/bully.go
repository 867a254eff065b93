// Package bully is the Bully leader election (Garcia-Molina 1982; the
// chapter's "Algoritmo do Brigão") on a complete graph of N nodes whose
// ids are their indices: a submission that, once it has an OK, waits for
// the COORD for ever: it never starts the coordinator timer.
//
// A node that suspects the leader sends ELECTION to every node with a
// higher id and starts its reply timer; if the timer fires with no OK, no
// higher node is alive: it declares itself leader and sends COORD to all.
// A node that receives ELECTION from a lower id answers OK and, unless it
// is already electing, starts an election of its own. A node that receives
// OK stops its reply timer and starts its coordinator timer: if no COORD
// comes before it fires, the node that answered has died, and the election
// starts again. A COORD makes its receiver follow the sender.
//
// Timers are inputs: a timer fires as one more event the node handles
// (node.InTick), and the timeouts, longer than any round trip, let a timer
// fire only once every message sent before it has arrived.
package bully

import "ringlab/engine/node"

// Kind is a message kind.
type Kind string

// Message kinds, as the chapter names them.
const (
	MsgElection Kind = "ELECTION" // (ELECTION, p): p asks the higher ids to take over
	MsgOK       Kind = "OK"       // (OK, q): a higher node answers q's ELECTION
	MsgCoord    Kind = "COORD"    // (COORD, p): p is the leader
)

// Msg is a Bully message: ID is p for ELECTION and COORD, and q, the node
// answered, for OK.
type Msg struct {
	Kind Kind `json:"kind"`
	ID   int  `json:"id"`
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// MessageTypes lists one value of every message type a node sends.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgElection}, Msg{Kind: MsgOK}, Msg{Kind: MsgCoord}}
}

// States of a node.
const (
	StateIdle      = "IDLE"      // no election seen yet
	StateCandidate = "CANDIDATE" // sent ELECTION, reply timer running
	StateWaiting   = "WAITING"   // got an OK, coordinator timer running
	StateLeader    = "LEADER"
	StateFollower  = "FOLLOWER"
)

// Timer ids.
const (
	TimerReply = 1 // waiting for an OK
	TimerCoord = 2 // waiting for a COORD after an OK
)

// Node is one process; its id is its index. The engine copies and keys it
// by its fields.
type Node struct {
	n, id        int
	reply, coord int64 // the reply and coordinator timeouts, in ticks
	state        string
	leader       int // the id this node follows (0: none yet)
}

// New builds node i of n, IDLE, with these timeouts.
func New(n, i int, reply, coord int64) *Node {
	return &Node{n: n, id: i, reply: reply, coord: coord, state: StateIdle}
}

// Step handles one input: the suspicion that starts an election, a timer
// that fires, or a message.
func (nd *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			nd.onSuspect(out)
		}
	case node.InTick:
		nd.onTimer(in.Timer, out)
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		switch {
		case !ok:
		case m.Kind == MsgElection:
			nd.onElection(in.From, m, out)
		case m.Kind == MsgOK:
			nd.onOK(out)
		case m.Kind == MsgCoord:
			nd.onCoord(m, out)
		}
	}
	out.Done = nd.state == StateLeader || nd.state == StateFollower
}

// electing reports whether an election of this node's is under way.
func (nd *Node) electing() bool { return nd.state == StateCandidate || nd.state == StateWaiting }

// setState records a change of state.
func (nd *Node) setState(s string, out *node.Output) {
	if nd.state != s {
		nd.state = s
		out.State(s)
	}
}

// follow takes id as leader, and says so.
func (nd *Node) follow(id int, out *node.Output) {
	if nd.leader != id {
		nd.leader = id
		out.Leader(id)
	}
}

// onSuspect: the node suspects the leader; it starts an election unless
// one of its own is under way or it leads.
func (nd *Node) onSuspect(out *node.Output) {
	if nd.electing() || nd.state == StateLeader {
		return
	}
	nd.startElection(out)
}

// startElection sends ELECTION to every higher id and starts the reply
// timer; the highest id has nobody to ask and declares at once.
func (nd *Node) startElection(out *node.Output) {
	out.StopTimer(TimerCoord)
	if nd.id == nd.n {
		nd.declare(out)
		return
	}
	nd.setState(StateCandidate, out)
	for j := nd.id + 1; j <= nd.n; j++ {
		out.Send(j, Msg{Kind: MsgElection, ID: nd.id})
	}
	out.SetTimer(TimerReply, nd.reply)
}

// declare makes the node the leader and tells every other node.
func (nd *Node) declare(out *node.Output) {
	out.StopTimer(TimerReply)
	nd.setState(StateLeader, out)
	nd.follow(nd.id, out)
	for j := 1; j <= nd.n; j++ {
		if j != nd.id {
			out.Send(j, Msg{Kind: MsgCoord, ID: nd.id})
		}
	}
}

// onTimer: the reply timer of a CANDIDATE means no higher node is alive;
// the coordinator timer of a WAITING node means the one that answered
// died before it declared.
func (nd *Node) onTimer(timer int, out *node.Output) {
	switch {
	case timer == TimerReply && nd.state == StateCandidate:
		nd.declare(out)
	case timer == TimerCoord && nd.state == StateWaiting:
		out.Note("no COORD after the OK: a new election")
		nd.startElection(out)
	}
}

// onElection answers a lower id's ELECTION with OK and takes over: a
// leader tells it who leads, another node starts its own election.
func (nd *Node) onElection(from int, m Msg, out *node.Output) {
	if m.ID >= nd.id {
		return
	}
	out.Send(from, Msg{Kind: MsgOK, ID: m.ID})
	switch {
	case nd.state == StateLeader:
		out.Send(from, Msg{Kind: MsgCoord, ID: nd.id})
	case !nd.electing():
		nd.startElection(out)
	}
}

// onOK: a higher node is alive and takes over; wait for its COORD.
func (nd *Node) onOK(out *node.Output) {
	if nd.state != StateCandidate {
		return
	}
	out.StopTimer(TimerReply)
	nd.setState(StateWaiting, out)
}

// onCoord follows the node that declared.
func (nd *Node) onCoord(m Msg, out *node.Output) {
	out.StopTimer(TimerReply)
	out.StopTimer(TimerCoord)
	nd.setState(StateFollower, out)
	nd.follow(m.ID, out)
}
