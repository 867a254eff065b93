// Package changroberts is Chang and Roberts' ring election (Chang & Roberts
// 1979) as the course chapter on leader election gives it, with the announcement round the chapter's exercise asks
// for. On a unidirectional ring (node i sends to i+1, node n to 1) a node that
// starts sends (p); a node receiving (q) declares itself leader if q == p,
// forwards (q) if q > p, and swallows it if q < p: the LARGEST id wins and
// only its message goes all the way round. The leader then sends ELECTED
// round the ring once, so every node learns the leader and stops (Done).
//
// Decision (not in the chapter): a node that swallows a smaller id before it has
// sent its own sends its own instead (it joins, as in Chang and Roberts'
// paper), so any set of initiators elects the maximum; as the chapter writes it,
// a lone initiator that is not the maximum would elect nobody. When every
// node starts, this changes no count. A node that already knows the leader
// does not join, but still forwards larger ids, as the chapter says: when
// messages overtake each other a late one may arrive after the announcement.
//
// Message complexity when every node starts: each id travels until the first
// larger id downstream, the maximum all the way round, in any delivery order
// (see Messages). Worst
// case, ids decreasing in the direction messages travel ([n, n-1, ..., 1]:
// id k travels k hops): n(n+1)/2. Best case, ids increasing ([1, 2, ..., n]):
// 2n-1. The announcement adds n. Messages are O(1) in size.
//
// The tests check exact counts on small rings, that over every permutation of
// small rings the counts match Messages and range exactly from BestCase to
// WorstCase, and, over random permutations, initiator sets and delivery
// orders, that exactly one node is leader, it has the maximum id, and every
// node ends knowing it and done.
package changroberts

import (
	"fmt"
	"math"

	"ringlab/engine/node"
)

// Message types.
const (
	TypeElection = "ELECTION"
	TypeElected  = "ELECTED"
)

// Election is the election message (q).
type Election struct {
	ID int `json:"id"`
}

// Type implements node.Msg.
func (Election) Type() string { return TypeElection }

// Elected is the announcement: LeaderID is the leader. It goes round once.
type Elected struct {
	LeaderID int `json:"leader_id"`
}

// Type implements node.Msg.
func (Elected) Type() string { return TypeElected }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg { return []node.Msg{Election{}, Elected{}} }

// State is a node's state. The chapter names none; these are the usual ones.
type State uint8

// States.
const (
	StateIdle        State = iota // has sent nothing of its own
	StateParticipant              // has sent or forwarded an election message
	StateLeader                   // its own id came back
	StateFollower                 // it got the announcement
)

var stateNames = [...]string{"Idle", "Participant", "Leader", "Follower"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// Note texts.
const (
	NoteIgnored  = "start ignored: already sent own id or knows the leader"
	NoteJoined   = "swallowed a smaller id and joined with its own"
	NoteComplete = "announcement came back: election complete"
)

// Config is one node's configuration; Factory builds them from the ids.
type Config struct {
	Index int // the node's position, 1..N
	N     int // ring size
	ID    int // the node's id
}

// Node is one process. Its state is 32 bytes, so a million fit, and in an
// array of them (see Factory) none straddles a cache line.
type Node struct {
	index, next int32 `ringlab:"fixed"` // a ring has at most MaxInt32 nodes
	id          int   `ringlab:"fixed"`
	leader      int   // valid when hasLeader
	state       State
	sentOwn     bool
	hasLeader   bool
	complete    bool // the leader's announcement came back
}

// New builds one node in state Idle.
func New(cfg Config) (*Node, error) {
	if cfg.N < 1 {
		return nil, fmt.Errorf("a ring needs at least 1 node, got %d", cfg.N)
	}
	if cfg.Index < 1 || cfg.Index > cfg.N {
		return nil, fmt.Errorf("node index %d is outside 1..%d", cfg.Index, cfg.N)
	}
	if cfg.N > math.MaxInt32 {
		return nil, fmt.Errorf("a ring has at most %d nodes, got %d", math.MaxInt32, cfg.N)
	}
	return &Node{index: int32(cfg.Index), next: int32(cfg.Index%cfg.N + 1), id: cfg.ID}, nil
}

// Step implements node.Node: CmdStart is "p thinks the leader is dead";
// other commands and timers are ignored.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			n.start(out)
		}
	case node.InMsg:
		switch m := in.Msg.(type) {
		case Election:
			if m.ID > n.id && n.state != StateIdle {
				// The commonest step by far, inline: pass a larger id on
				// (onElection's case q > n.id, with nothing to participate in).
				out.Send(int(n.next), in.Msg)
				break
			}
			n.onElection(m.ID, in.Msg, out)
		case Elected:
			n.onElected(m.LeaderID, in.Msg, out)
		}
	}
	out.Done = n.state == StateFollower || (n.state == StateLeader && n.complete)
}

func (n *Node) start(out *node.Output) {
	if n.sentOwn || n.hasLeader {
		out.NoteText(NoteIgnored)
		return
	}
	n.sendOwn(out)
}

// onElection and onElected forward the message they received as it is: a
// message is an immutable value, and re-sending the same node.Msg saves
// boxing a new one for every hop (16 million of them in a million-node ring).
func (n *Node) onElection(q int, msg node.Msg, out *node.Output) {
	switch {
	case q == n.id:
		n.setState(StateLeader, out)
		n.leader, n.hasLeader = n.id, true
		out.Leader(n.id)
		out.Send(int(n.next), Elected{LeaderID: n.id})
	case q > n.id: // forwarded, even late (after the announcement) when messages overtake
		n.participate(out)
		out.Send(int(n.next), msg)
	case !n.sentOwn && !n.hasLeader: // q < p: swallowed, and p joins
		out.NoteText(NoteJoined)
		n.sendOwn(out)
	}
}

func (n *Node) onElected(l int, msg node.Msg, out *node.Output) {
	if l == n.id {
		n.complete = true
		out.NoteText(NoteComplete)
		return
	}
	n.setState(StateFollower, out)
	n.leader, n.hasLeader = l, true
	out.Leader(l)
	out.Send(int(n.next), msg)
}

func (n *Node) sendOwn(out *node.Output) {
	n.sentOwn = true
	n.participate(out)
	out.Send(int(n.next), Election{ID: n.id})
}

// participate moves Idle to Participant; later states stay.
func (n *Node) participate(out *node.Output) {
	if n.state == StateIdle {
		n.setState(StateParticipant, out)
	}
}

func (n *Node) setState(s State, out *node.Output) {
	if n.state != s {
		n.state = s
		out.State(s.String())
	}
}

// Status is a snapshot of a node for checkers and tests.
type Status struct {
	Index, ID int
	State     State
	Leader    int  // valid when HasLeader
	HasLeader bool // the node knows the leader
	Complete  bool // the leader's announcement came back (leader only)
}

// Status returns the node's current status.
func (n *Node) Status() Status {
	return Status{Index: int(n.index), ID: n.id, State: n.state, Leader: n.leader,
		HasLeader: n.hasLeader, Complete: n.complete}
}
