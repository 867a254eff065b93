// Package anonymous is "Algoritmo do Anel 1" of the course chapter on leader
// election:
// election on a unidirectional ring of identical processes that have no ids.
// Each process keeps C ∈ {Follower, Candidate, Elected, Installed}, starting
// as Follower. A process that thinks the leader is dead becomes Candidate and
// sends VoteForMe to the right. On VoteForMe a Follower forwards it and a
// Candidate becomes Elected and sends WeHaveALeader; on WeHaveALeader a
// Follower forwards it and an Elected process becomes Installed.
//
// It is the chapter's negative example. With one candidate it works: its
// vote and then its announcement each go round once (n + n messages). When
// several processes become candidates at once, every vote stops at the next
// candidate, which takes it for its own: all of them end Installed, still
// with n + n messages. Uniqueness is violated, and nothing can fix it while
// the processes are indistinguishable: symmetry cannot be broken without ids.
//
// The algorithm has no ids, so out.Leader cannot name one. An Installed
// process reports out.Leader(i) with its own INDEX i: a label the observer
// gives it, which the process itself does not know. A uniqueness checker
// then sees two distinct leaders when two processes are Installed — the
// violation the lesson is about.
//
// The tests check one candidate on rings of 2 and more processes (exactly
// one Installed, 2n messages) and all or several candidates at once (every
// candidate Installed, 2n messages), reproducing the chapter's two tables.
package anonymous

import (
	"fmt"
	"strconv"

	"ringlab/engine/node"
)

// Message types (the chapter's VoteEmMim and HabemosLider).
const (
	TypeVoteForMe     = "VoteForMe"
	TypeWeHaveALeader = "WeHaveALeader"
)

// VoteForMe is a candidate's vote request; it carries nothing, since the
// processes have no ids.
type VoteForMe struct{}

// Type implements node.Msg.
func (VoteForMe) Type() string { return TypeVoteForMe }

// WeHaveALeader is the announcement; it carries nothing either.
type WeHaveALeader struct{}

// Type implements node.Msg.
func (WeHaveALeader) Type() string { return TypeWeHaveALeader }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg { return []node.Msg{VoteForMe{}, WeHaveALeader{}} }

// State is the chapter's C.
type State uint8

// The chapter's four values of C (Seguidor, Candidato, Eleito, Empossado).
const (
	StateFollower State = iota
	StateCandidate
	StateElected
	StateInstalled
)

var stateNames = [...]string{"Follower", "Candidate", "Elected", "Installed"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// Notes for the cases the chapter does not define.
const (
	NoteVoteIgnored   = "VoteForMe ignored: neither Follower nor Candidate"
	NoteLeaderIgnored = "WeHaveALeader ignored: neither Follower nor Elected"
)

// Config is one process's configuration. Index is where the observer put it
// on the ring; the process uses it only to address its right neighbour.
type Config struct {
	Index int // 1..N
	N     int // ring size
}

// Node is one anonymous process.
type Node struct {
	index, next int `ringlab:"fixed"`
	state       State
	relayed     bool // a Follower that has forwarded WeHaveALeader
}

// New builds one process with C = Follower.
func New(cfg Config) (*Node, error) {
	if cfg.N < 1 {
		return nil, fmt.Errorf("a ring needs at least 1 process, got %d", cfg.N)
	}
	if cfg.Index < 1 || cfg.Index > cfg.N {
		return nil, fmt.Errorf("process index %d is outside 1..%d", cfg.Index, cfg.N)
	}
	return &Node{index: cfg.Index, next: cfg.Index%cfg.N + 1}, nil
}

// Factory validates the ring size once and returns a node.Factory.
func Factory(n int) (node.Factory, error) {
	if n < 1 {
		return nil, fmt.Errorf("a ring needs at least 1 process, got %d", n)
	}
	return func(i int) (node.Node, error) { return New(Config{Index: i, N: n}) }, nil
}

// Step implements node.Node: CmdStart is "the process thinks the leader is
// dead"; other commands and timers are ignored.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			n.setState(StateCandidate, out)
			out.Send(n.next, VoteForMe{})
		}
	case node.InMsg:
		switch in.Msg.(type) {
		case VoteForMe:
			n.onVote(out)
		case WeHaveALeader:
			n.onLeader(out)
		}
	}
	out.Done = n.state == StateInstalled || (n.state == StateFollower && n.relayed)
}

func (n *Node) onVote(out *node.Output) {
	switch n.state {
	case StateFollower:
		out.Send(n.next, VoteForMe{})
	case StateCandidate:
		n.setState(StateElected, out)
		out.Send(n.next, WeHaveALeader{})
	default:
		out.Events = append(out.Events, node.Event{Kind: node.EvNote, Note: NoteVoteIgnored})
	}
}

func (n *Node) onLeader(out *node.Output) {
	switch n.state {
	case StateFollower:
		n.relayed = true
		out.Send(n.next, WeHaveALeader{})
	case StateElected:
		n.setState(StateInstalled, out)
		out.Leader(n.index) // the observer's label: the process has no id
	default:
		out.Events = append(out.Events, node.Event{Kind: node.EvNote, Note: NoteLeaderIgnored})
	}
}

func (n *Node) setState(s State, out *node.Output) {
	if n.state != s {
		n.state = s
		out.State(s.String())
	}
}

// State returns the process's C.
func (n *Node) State() State { return n.state }

// Messages is the theory when the candidates all start before any message
// is delivered (FIFO links): n VoteForMe and n WeHaveALeader, whatever the
// number of candidates, and every candidate ends Installed.
func Messages(n int) (votes, leaders int) { return n, n }

// Show implements node.Shower: the process by its C, marked a leader
// once Elected (and still when Installed), and whether it has relayed
// WeHaveALeader.
func (n *Node) Show(func(int) string) node.Shown {
	sh := node.Shown{State: n.state.String(), Fields: []node.Field{{Name: "relayed", Value: strconv.FormatBool(n.relayed)}}}
	if n.state == StateElected || n.state == StateInstalled {
		sh.Mark = node.MarkLeader
	}
	return sh
}
