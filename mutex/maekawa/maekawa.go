// Package maekawa is Maekawa's √N quorum mutual exclusion with the
// INQUIRE/RELINQUISH/FAILED exchange that keeps it free of deadlock — the
// answer to the question the course chapter on mutual exclusion ends
// Ricart-Agrawala with, "can we get both down?" (Maekawa 1985).
//
// Every node is a requester and an arbiter for the nodes whose quorum holds
// it (quorum.go: row and column of a grid, so any two quorums intersect). An
// arbiter grants one lock at a time. To enter, a node ticks its Lamport clock
// and sends REQUEST(T, id) to its quorum; it enters with a LOCKED from every
// member, and on exit sends RELEASE to every member, which locks for the
// next waiting request, if any. Requests are ordered by (T, id), lower first.
// Deadlock is avoided as in Maekawa's paper with Sanders' care for displaced
// requests:
//
//   - an arbiter that is locked queues a REQUEST. If the request is not the
//     highest of the lock and the queue, it answers FAILED. If it is, the
//     arbiter sends FAILED to a request it displaces from the top of the
//     queue, and INQUIRE to the lock holder (once per lock);
//   - a requester answers INQUIRE with RELINQUISH if it has had a FAILED for
//     this request; otherwise it keeps the INQUIRE and relinquishes when a
//     FAILED arrives; it drops it when it enters (its RELEASE will follow);
//   - on RELINQUISH the arbiter queues the old lock and locks for the head.
//
// Messages per entry with quorum size K: exactly 3(K-1) without contention, up
// to about 5(K-1) with it (MessagesPerEntry). A node is a member of its own
// quorum and reaches that member by a local call, never a message.
//
// Decisions: all messages carry the sender's clock (T) and the request they
// concern (ReqT); one outstanding request per node, a CmdRequest while WANTED
// or HELD is remembered and issued right after the next release; a CmdRelease
// when not HELD is ignored (with a note). The protocol assumes per-link FIFO
// channels (an INQUIRE must not overtake the LOCKED it concerns).
//
// The tests check: pairwise intersection of quorums for N = 1..50; mutual
// exclusion, no deadlock and every request granted over random per-link FIFO
// schedules with many simultaneous requests; exact uncontended counts and the
// bound under contention; and, step by step, the bound on how far a clock
// can climb on its own that the exhaustive checker narrows gaps with
// (climb.go).
package maekawa

import (
	"fmt"
	"slices"

	"ringlab/engine/node"
	"ringlab/mutex/internal/ids"
)

// Kind is a message kind.
type Kind string

// Message kinds, in protocol order.
const (
	MsgRequest    Kind = "REQUEST"    // requester -> arbiter: REQUEST(T, id)
	MsgLocked     Kind = "LOCKED"     // arbiter -> requester: the lock is yours
	MsgFailed     Kind = "FAILED"     // arbiter -> requester: a higher request is ahead
	MsgInquire    Kind = "INQUIRE"    // arbiter -> lock holder: can you give it back?
	MsgRelinquish Kind = "RELINQUISH" // lock holder -> arbiter: take it back (YIELD)
	MsgRelease    Kind = "RELEASE"    // requester -> arbiter: done
)

// Msg is a Maekawa message.
type Msg struct {
	Kind Kind `json:"kind"`
	T    int  `json:"t"`     // the sender's Lamport clock
	ReqT int  `json:"req_t"` // the timestamp of the request it concerns
	ID   int  `json:"id"`    // the requester's id
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgRequest}, Msg{Kind: MsgLocked}, Msg{Kind: MsgFailed},
		Msg{Kind: MsgInquire}, Msg{Kind: MsgRelinquish}, Msg{Kind: MsgRelease}}
}

// States, named as in Ricart-Agrawala (package ricart).
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// MaxNodes bounds Config.N.
const MaxNodes = 1024

// Config is one run's configuration; Index picks the node New builds.
type Config struct {
	N     int   // nodes, 1..MaxNodes
	Index int   // the node to build, 1..N (Factory sets it)
	Ids   []int // optional algorithm ids by index; default id = index
}

func (c Config) validate() error { return ids.Check("maekawa", c.N, MaxNodes, c.Ids) }

// Factory validates cfg once (cfg.Index is ignored) and returns a builder of
// node i of cfg.N.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Ids = slices.Clone(cfg.Ids)
	return func(i int) (node.Node, error) {
		if i < 1 || i > cfg.N {
			return nil, fmt.Errorf("maekawa: node index must be 1..%d, got %d", cfg.N, i)
		}
		id := i
		if len(cfg.Ids) > 0 {
			id = cfg.Ids[i-1]
		}
		q := Quorum(cfg.N, i)
		return &Node{self: i, id: id, quorum: q, state: StateReleased, granted: make(map[int]bool, len(q)),
			inquired: make(map[int]bool, len(q))}, nil
	}, nil
}

// New builds node cfg.Index, RELEASED and unlocked.
func New(cfg Config) (*Node, error) {
	f, err := Factory(cfg)
	if err != nil {
		return nil, err
	}
	n, err := f(cfg.Index)
	if err != nil {
		return nil, err
	}
	return n.(*Node), nil
}

// Node is one process, requester and arbiter. It is not safe for concurrent
// use: its runtime calls Step from one goroutine.
type Node struct {
	self, id int   `ringlab:"fixed"`
	quorum   []int `ringlab:"fixed"`
	clock    int
	local    []Msg // messages to this node's own arbiter or requester

	// requester
	state    string
	reqT     int
	granted  map[int]bool // arbiters whose lock this request holds
	inquired map[int]bool // kept INQUIREs, by arbiter
	failed   bool         // a FAILED arrived for this request
	later    int          // remembered requests

	// arbiter
	lock    *Request  // the request holding this arbiter's lock, or nil
	asked   bool      // an INQUIRE was sent for the current lock
	waiting []Request // sorted, highest priority first
}

// Request is a request as an arbiter keeps it.
type Request struct {
	T, ID, Index int
	Failed       bool // FAILED was sent to it (or it relinquished)
}

// Before orders requests: lower timestamp first, lower id breaks ties.
func (r Request) Before(s Request) bool { return r.T < s.T || r.T == s.T && r.ID < s.ID }

// Step handles one input, then whatever the node sent itself.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdRequest:
			n.request(out)
		case node.CmdRelease:
			n.release(out)
		case node.CmdRecover:
			// A rebuilt node starts empty; its arbiter has forgotten its
			// lock (amnesia, as in package quorum): not handled.
		default:
			out.Note("ignored command %q", in.Cmd)
		}
	case node.InMsg:
		if m, ok := in.Msg.(Msg); ok {
			n.handle(in.From, m, out)
		}
	}
	for len(n.local) > 0 {
		m := n.local[0]
		n.local = n.local[1:]
		n.handle(n.self, m, out)
	}
}

func (n *Node) handle(from int, m Msg, out *node.Output) {
	n.clock = max(n.clock, m.T) + 1
	switch m.Kind {
	case MsgRequest:
		n.onRequest(Request{T: m.ReqT, ID: m.ID, Index: from}, out)
	case MsgLocked:
		n.onLocked(from, m, out)
	case MsgFailed:
		n.onFailed(m, out)
	case MsgInquire:
		n.onInquire(from, m, out)
	case MsgRelinquish:
		n.onRelinquish(from, m, out)
	case MsgRelease:
		n.onRelease(from, m, out)
	}
}

func (n *Node) send(to int, k Kind, reqT, id int, out *node.Output) {
	m := Msg{Kind: k, T: n.clock, ReqT: reqT, ID: id}
	if to == n.self {
		n.local = append(n.local, m)
		return
	}
	out.Send(to, m)
}
