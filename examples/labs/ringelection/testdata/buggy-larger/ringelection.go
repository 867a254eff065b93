// Package ringelection is the node of the specification's ring election,
// the file students hand in: N nodes with distinct ids on a unidirectional
// ring (node i sends to node i+1, node N to node 1) elect the node with
// the SMALLEST id, by six rules:
//
//  1. A node that is ASLEEP may start on its own: it becomes CANDIDATE
//     and sends ELECTION(my_id) to its successor.
//  2. On ELECTION(id) with id < my_id: become CANDIDATE and forward
//     ELECTION(id).
//  3. On ELECTION(id) with id > my_id: become CANDIDATE and send
//     ELECTION(my_id) instead.
//  4. On ELECTION(id) with id == my_id: my id went all the way round, so
//     it is the smallest: become LEADER and send ELECTED(my_id).
//  5. On ELECTED(id) with id != my_id: become FOLLOWER and forward
//     ELECTED(id).
//  6. On ELECTED(id) with id == my_id: the announcement came back; the
//     election is complete.
//
// The messages, the notes and the properties the lab grades by are in
// package ringspec; this file is the node's state and its Step.
package ringelection

import (
	"example.com/ringlab-examples/labs/ringelection/ringspec"
	"ringlab/engine"
	"ringlab/engine/node"
)

// The specification's four states.
const (
	Asleep    = "ASLEEP"
	Candidate = "CANDIDATE"
	Leader    = "LEADER"
	Follower  = "FOLLOWER"
)

// Node is one process of the ring. The engine copies it and tells states
// apart by its fields' values.
type Node struct {
	id, next int `ringlab:"fixed"` // its id, and its successor's index
	state    string
	complete bool // rule 6 fired
}

// New builds node i (1-based) of the ring whose ids, in ring order, are
// ids: ASLEEP.
func New(ids []int, i int) node.Node {
	return &Node{id: ids[i-1], next: i%len(ids) + 1, state: Asleep}
}

// Algorithm is the lab's algorithm value, for every tool.
func Algorithm() engine.Algorithm { return ringspec.Algorithm("ring-election", New) }

// Step handles one input: the command to start (rule 1), or a message
// from the predecessor (rules 2 to 6). A node's part is done once it
// follows a leader, or leads and its announcement came back.
func (nd *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			nd.start(out)
		}
	case node.InMsg:
		switch m := in.Msg.(type) {
		case ringspec.Election:
			nd.onElection(m.CandidateID, out)
		case ringspec.Elected:
			nd.onElected(m.LeaderID, out)
		}
	}
	out.Done = nd.state == Follower || nd.state == Leader && nd.complete
}

// become moves to state s, and says so when it changes.
func (nd *Node) become(s string, out *node.Output) {
	if nd.state != s {
		nd.state = s
		out.State(s)
	}
}

// start is rule 1: an ASLEEP node becomes CANDIDATE, notes
// ringspec.NoteStarted ("iniciando eleição") and sends ELECTION(my_id)
// to its successor, nd.next.
func (nd *Node) start(out *node.Output) {
	if nd.state != Asleep {
		return
	}
	nd.become(Candidate, out)
	out.NoteText(ringspec.NoteStarted)
	out.Send(nd.next, ringspec.Election{CandidateID: nd.id})
}

// onElection is rules 2, 3 and 4. The lines "recebeu ELECTION(x)" and
// "Enviou ELECTION(x) para Node j" are printed from the messages; rule
// 4's "SOU O LÍDER!" from out.Leader(my_id).
func (nd *Node) onElection(id int, out *node.Output) {
	if id == nd.id { // rule 4
		nd.become(Leader, out)
		out.Leader(nd.id)
		out.Send(nd.next, ringspec.Elected{LeaderID: nd.id})
		return
	}
	nd.become(Candidate, out)
	out.Send(nd.next, ringspec.Election{CandidateID: max(id, nd.id)}) // the larger of the two goes on
}

// onElected is rules 5 and 6: a follower's "Reconheço líder ID=x" is
// printed from out.Leader(x), the leader's "Eleição completa!" from the
// note ringspec.NoteComplete.
func (nd *Node) onElected(id int, out *node.Output) {
	if id == nd.id { // rule 6
		nd.complete = true
		out.NoteText(ringspec.NoteComplete)
		return
	}
	nd.become(Follower, out)
	out.Leader(id)
	out.Send(nd.next, ringspec.Elected{LeaderID: id})
}
