// Package twophase is two-phase commit (Gray, "Notes on Data Base
// Operating Systems", 1978; the commit protocol of every distributed
// database textbook) written against ringlab's public engine: node 1 is the
// coordinator, nodes 2..N+1 the participants P1..PN. The coordinator sends
// PREPARE to every participant; each answers VOTE yes or no (a no-voter
// aborts at once); the coordinator decides commit only when every vote is
// yes, abort on a no or when its timer fires, and sends the DECISION to
// all. 3N messages when every participant answers. Its properties,
// atomicity and validity, are in properties.go.
//
// With --eager the coordinator decides commit at the first yes: the
// planted bug the exhaustive checker finds.
package twophase

import "ringlab/engine/node"

// Prepare asks a participant to vote.
type Prepare struct{}

// Vote is a participant's answer.
type Vote struct {
	Yes bool `json:"yes"`
}

// Decision is the coordinator's outcome, sent to every participant.
type Decision struct {
	Commit bool `json:"commit"`
}

// Type is "PREPARE".
func (Prepare) Type() string { return "PREPARE" }

// Type is "VOTE".
func (Vote) Type() string { return "VOTE" }

// Type is "DECISION".
func (Decision) Type() string { return "DECISION" }

// The states a node announces (node.Output.State), which the properties read.
const (
	StateVotedYes  = "voted yes"
	StateVotedNo   = "voted no"
	StateCommitted = "committed"
	StateAborted   = "aborted"
)

const timeout = 1 // the coordinator's timer id

// Node is the coordinator (index 1) or a participant.
type Node struct {
	index, n int   // n participants
	no       bool  // a participant that votes no
	eager    bool  // the coordinator's planted bug
	wait     int64 // the coordinator's timeout, in ticks
	yes      int   // yes votes counted
	decided  bool
}

// Step handles one input.
func (s *Node) Step(in node.Input, out *node.Output) {
	switch {
	case s.index == 1 && in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		for p := 2; p <= s.n+1; p++ {
			out.Send(p, Prepare{})
		}
		out.SetTimer(timeout, s.wait)
	case s.index == 1 && in.Kind == node.InMsg && !s.decided:
		if v := in.Msg.(Vote); !v.Yes {
			s.decide(out, false)
		} else if s.yes++; s.yes == s.n || s.eager {
			s.decide(out, true)
		}
	case s.index == 1 && in.Kind == node.InTick && !s.decided:
		s.decide(out, false)
	case in.Kind == node.InMsg && in.Msg.Type() == "PREPARE":
		out.Send(1, Vote{Yes: !s.no})
		if s.no {
			out.State(StateVotedNo)
			s.finish(out, false)
		} else {
			out.State(StateVotedYes)
		}
	case in.Kind == node.InMsg && in.Msg.Type() == "DECISION" && !s.decided:
		s.finish(out, in.Msg.(Decision).Commit)
	}
	out.Done = s.index != 1 || s.decided // a participant never holds the run up: 2PC blocks
}

// decide is the coordinator's decision, sent to every participant.
func (s *Node) decide(out *node.Output, commit bool) {
	s.finish(out, commit)
	out.StopTimer(timeout)
	for p := 2; p <= s.n+1; p++ {
		out.Send(p, Decision{Commit: commit})
	}
}

func (s *Node) finish(out *node.Output, commit bool) {
	s.decided = true
	out.State(map[bool]string{true: StateCommitted, false: StateAborted}[commit])
}

// Clone returns an independent copy (the node holds no pointers).
func (s *Node) Clone() node.Node { c := *s; return &c }

// AppendKey appends everything Step depends on that changes.
func (s *Node) AppendKey(b []byte) []byte {
	return node.AppendBool(node.AppendInt(b, s.yes), s.decided)
}
