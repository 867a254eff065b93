package engine

import (
	"strconv"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Goal is a state an exhaustive check can be asked to reach (`check
// --goal NAME`), the way DSLabs' search tests and Stateright's
// `sometimes` ask: a named predicate over a global state, which an area
// registers with its System (System.Goals) as it registers properties.
// The check prints a shortest path to the first state where it holds, or
// says that no reachable state does.
type Goal struct {
	Name  string // the flag's value: "two-candidates"
	Usage string // one line: what the goal is, for the list --goal prints
	// Holds reports whether the goal holds in s. It must not change s's
	// nodes or messages (they are the checker's), and must not read
	// absolute Lamport clocks (the checker may shift them: node.Values.Clock).
	Holds func(s GlobalState) bool
	// Monitor, if set, makes the goal one over history ("a node
	// overtaken twice"), not only over the current state: the check
	// calls it once for a fresh Monitor, clones it along every path, shows
	// it the events of every step, and keys it into the searched state,
	// so that two paths to the same nodes and messages with different
	// histories stay two states. Holds finds it in GlobalState.Monitor.
	Monitor func() Monitor
}

// Monitor is a goal's memory of what happened on the path to a state: a
// small state of its own, updated by the events of every step. As a
// node.Node, it is a value the checker clones and keys: Observe changes
// only the Monitor it is called on, and AppendKey encodes everything
// Observe and the goal's Holds read (the smaller, the fewer states the
// search tells apart).
type Monitor interface {
	// Observe shows the monitor one event of a step, of a kind Wants
	// lists: a command given to a node (trace.KindCmd), a node's event
	// (enter_cs, exit_cs, state, leader, note), a crash or a recovery.
	// It must not read the event's time (T): the checker's clocks are
	// its own.
	Observe(e *trace.Event)
	// Wants is the kinds of events Observe is shown.
	Wants() trace.Kinds
	// Clone returns an independent copy.
	Clone() Monitor
	// AppendKey appends a canonical encoding of the monitor's state.
	AppendKey(b []byte) []byte
}

// GlobalState is what a Goal sees of a state: every node and every
// message in flight.
type GlobalState struct {
	// Nodes holds node i at index i-1, nil while it is crashed.
	Nodes []node.Node
	// InFlight is every message sent and not yet delivered or lost, by
	// link, each link's in the order the checker keeps them.
	InFlight []InFlight
	// Monitor is the goal's monitor in this state (Goal.Monitor), nil for
	// a goal without one. Holds must not change it.
	Monitor Monitor
}

// InFlight is one message in flight on the link From -> To.
type InFlight struct {
	From, To int      // the sender's and the receiver's indices
	Msg      node.Msg // the message
}

// MessagesOnALink is the goal "k messages in flight on one link", which
// every area can register: where a bounded buffer would overflow.
func MessagesOnALink(k int) Goal {
	return Goal{
		Name:  "messages-on-a-link",
		Usage: "some link holds at least " + strconv.Itoa(k) + " messages in flight at once",
		Holds: func(s GlobalState) bool {
			run := 0
			for j, m := range s.InFlight {
				if j > 0 && (m.From != s.InFlight[j-1].From || m.To != s.InFlight[j-1].To) {
					run = 0
				}
				if run++; run >= k {
					return true
				}
			}
			return false
		},
	}
}
