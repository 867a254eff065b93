// Package smallestid is the ring leader election of the course's ring-election
// specification, rule for rule (election/README.md, "The ring election,
// rule by rule"): a unidirectional ring (node i sends to i+1, node n to 1),
// states ASLEEP, CANDIDATE, LEADER, FOLLOWER, messages ELECTION(candidate_id)
// and ELECTED(leader_id), and the SMALLEST id wins. Rules 2 and 3 make every
// node forward the smaller of the id it received and its own, so the message
// carries the running minimum; rule 4 fires at the minimum when its own id
// comes back, and rule 5 forwards ELECTED until rule 6 stops it at the leader.
//
// Message complexity. With one initiator: d + n ELECTION messages (d = hops
// from the initiator to the minimum, so at most 2n-1) plus n ELECTED — linear,
// not the O(n^2) the specification claims. With k initiators the rules as written never
// drop an ELECTION: each initiator's message reaches the minimum, which sends
// its own id round the ring once per arrival, so rule 4 fires k times and
// there are sum(d_j + n) ELECTION and k*n ELECTED messages (see Messages). The
// run still terminates: rule 6 stops every ELECTED at the leader.
//
// Ring.Extinction is the lab's fix (a decision, not in the specification): a node sends
// a candidate only if it is smaller than every candidate it has sent before,
// and otherwise drops the ELECTION. The minimum then sends its own id exactly
// once, rule 4 fires exactly once, there are exactly n ELECTED messages, and
// states only move forward. With one initiator nothing is ever dropped, so
// the counts are the same as without the fix.
//
// The tests check the four required rings of the specification, its expected
// output line by line, the single-initiator count d + n + n for every
// initiator position over all permutations of small rings, exact counts with
// several initiators with and without the fix, and, over random delivery
// orders, termination, exactly one LEADER holding the minimum id with every
// other node FOLLOWER, and (with the fix) rule 4 firing exactly once.
package smallestid

import (
	"fmt"

	"ringlab/engine/node"
)

// Message types, as the specification names them on the wire.
const (
	TypeElection = "ELECTION"
	TypeElected  = "ELECTED"
)

// Election is ELECTION(candidate_id), sent by rules 1-3. The specification's wire
// format also has a timestamp: runtimes stamp time, nodes do not.
type Election struct {
	CandidateID int `json:"candidate_id"`
	SenderID    int `json:"sender_id"` // the sender's algorithm id
}

// Type implements node.Msg.
func (Election) Type() string { return TypeElection }

// Elected is ELECTED(leader_id), sent by rules 4 and 5. The specification's wire
// format names the id candidate_id for both types; the json tag keeps that.
type Elected struct {
	LeaderID int `json:"candidate_id"`
	SenderID int `json:"sender_id"`
}

// Type implements node.Msg.
func (Elected) Type() string { return TypeElected }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg { return []node.Msg{Election{}, Elected{}} }

// State is a node's state, with the specification's names.
type State uint8

// The specification's four states.
const (
	StateAsleep State = iota
	StateCandidate
	StateLeader
	StateFollower
)

var stateNames = [...]string{"ASLEEP", "CANDIDATE", "LEADER", "FOLLOWER"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// Note texts, so a renderer can print the specification's expected output. Becoming
// leader is the event State(LEADER) followed by Leader(own id) ("SOU O LÍDER!
// Enviando ELECTED(1)"); recognising a leader is Leader(id) at a node that is
// not the leader ("Reconheço líder ID=1"); "recebeu ELECTION(x)" and "Enviou
// ELECTION(x) para Node j" are the received message and the send.
const (
	NoteStarted   = "started election"              // rule 1: "ID=5 iniciando eleição"
	NoteNotAsleep = "start ignored: not ASLEEP"     // rule 1 applies only when ASLEEP
	NoteOwnID     = "received own id"               // rule 4: "recebeu ELECTION(1) - próprio ID!"
	NoteRule4     = "rule 4 fired again"            // rule 4 at a node where it already fired: several initiators
	NoteComplete  = "election complete"             // rule 6: "Eleição completa!"
	NoteDropped   = "ELECTION dropped (extinction)" // Ring.Extinction only
)

// Config is one node's configuration; Factory builds them from a Ring.
type Config struct {
	Index      int  // the node's position, 1..N
	N          int  // ring size
	ID         int  // the node's algorithm id
	Extinction bool // see Ring.Extinction
}

// Node is one process of the ring. Its state is a few words so that a ring
// of a million nodes fits in memory.
type Node struct {
	index, next, id int `ringlab:"fixed"`
	state           State
	extinction      bool `ringlab:"fixed"`
	sent            bool // it has sent an ELECTION; sentMin is then meaningful
	sentMin         int  // smallest candidate it has sent
	fired           int  // times rule 4 fired here
	leader          int  // the leader's id, once known (hasLeader)
	hasLeader       bool
	complete        bool // rule 6 fired
}

// New builds one node in state ASLEEP.
func New(cfg Config) (*Node, error) {
	if cfg.N < 1 {
		return nil, fmt.Errorf("a ring needs at least 1 node, got %d", cfg.N)
	}
	if cfg.Index < 1 || cfg.Index > cfg.N {
		return nil, fmt.Errorf("node index %d is outside 1..%d", cfg.Index, cfg.N)
	}
	return &Node{index: cfg.Index, next: cfg.Index%cfg.N + 1, id: cfg.ID, extinction: cfg.Extinction}, nil
}

// Step implements node.Node: CmdStart is rule 1's "spontaneously", messages
// are rules 2-6. Other inputs are ignored.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			n.start(out)
		}
	case node.InMsg:
		switch m := in.Msg.(type) {
		case Election:
			n.onElection(m.CandidateID, out)
		case Elected:
			n.onElected(m.LeaderID, out)
		}
	}
	out.Done = n.state == StateFollower || (n.state == StateLeader && n.complete)
}

// start is rule 1.
func (n *Node) start(out *node.Output) {
	if n.state != StateAsleep {
		out.NoteText(NoteNotAsleep)
		return
	}
	n.setState(StateCandidate, out)
	out.NoteText(NoteStarted)
	n.sendElection(n.id, out)
}

// onElection is rules 2, 3 and 4.
func (n *Node) onElection(id int, out *node.Output) {
	if id == n.id { // rule 4
		n.fired++
		out.NoteText(NoteOwnID)
		if n.fired > 1 {
			out.NoteText(NoteRule4)
		}
		n.setState(StateLeader, out)
		n.leader, n.hasLeader = n.id, true
		out.Leader(n.id)
		out.Send(n.next, Elected{LeaderID: n.id, SenderID: n.id})
		return
	}
	c := min(id, n.id) // rule 2 forwards id < my_id; rule 3 sends my_id
	if n.extinction && n.sent && c >= n.sentMin {
		out.NoteText(NoteDropped)
		return
	}
	n.setState(StateCandidate, out)
	n.sendElection(c, out)
}

// onElected is rules 5 and 6.
func (n *Node) onElected(id int, out *node.Output) {
	if id == n.id { // rule 6
		n.complete = true
		out.NoteText(NoteComplete)
		return
	}
	n.setState(StateFollower, out) // rule 5
	n.leader, n.hasLeader = id, true
	out.Leader(id)
	out.Send(n.next, Elected{LeaderID: id, SenderID: n.id})
}

func (n *Node) sendElection(c int, out *node.Output) {
	if !n.sent || c < n.sentMin {
		n.sent, n.sentMin = true, c
	}
	out.Send(n.next, Election{CandidateID: c, SenderID: n.id})
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
	HasLeader bool // the node has taken someone as leader
	Rule4     int  // times rule 4 fired here (more than 1 only with several initiators and no fix)
	Complete  bool // rule 6 fired here
}

// Status returns the node's current status.
func (n *Node) Status() Status {
	return Status{Index: n.index, ID: n.id, State: n.state, Leader: n.leader,
		HasLeader: n.hasLeader, Rule4: n.fired, Complete: n.complete}
}
