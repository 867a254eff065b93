// Package franklin is Franklin's leader election on a bidirectional ring
// (Franklin 1982, as the course chapter on leader election gives it): the
// LARGEST id wins.
//
// The election runs in rounds. An active process sends its id both ways
// round the ring; once it holds the round's id e from its left and d from its
// right it compares: max(e, d) < p, it enters the next round; max(e, d) > p,
// it turns passive; max(e, d) == p, its own id came back from both sides, so
// it is the only active process left and the leader. Passive processes relay
// every message to the other side. Messages carry their round: a passive
// relay can let round r+1 from one side arrive before round r from the
// other, so an active process buffers ids by side and round. The leader then
// sends ELECTED clockwise once round the ring so everyone learns it.
//
// Decision (the chapter leaves it open): the chapter has a process that turns
// passive "send -p both ways"; here it sends nothing of its own (Franklin's
// original), since a -p would be taken for the next round's id. A process
// that has not been started wakes on its first ELECTION and joins round 1.
//
// Complexity: in every round each link carries exactly one message each way,
// so a run of R rounds sends exactly 2nR ELECTION messages plus n ELECTED.
// Among k >= 2 active processes no two neighbours both survive a round, so
// R <= floor(log2 n) + 1 (MaxRounds). The tests check exact results and
// counts on small rings, exactly one leader with the maximum id and
// agreement over all permutations and random per-link-FIFO delivery orders.
package franklin

import (
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"

	"ringlab/election/internal/ids"
	"ringlab/engine/node"
)

// Kind is a message kind.
type Kind uint8

const (
	MsgElection Kind = iota + 1 // (p) of a round, travelling one way round the ring
	MsgElected                  // the leader's announcement, clockwise
)

func (k Kind) String() string {
	switch k {
	case MsgElection:
		return "ELECTION"
	case MsgElected:
		return "ELECTED"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Dir is the way a message travels round the ring.
type Dir string

const (
	Clockwise        Dir = "cw"  // sent to the successor; arrives from the receiver's left
	Counterclockwise Dir = "ccw" // sent to the predecessor; arrives from the receiver's right
)

// Msg is a Franklin message.
type Msg struct {
	Kind  Kind `json:"-"`
	Id    int  `json:"id"`
	Round int  `json:"round,omitempty"` // ELECTION only
	Dir   Dir  `json:"dir,omitempty"`   // ELECTION only
}

// Type names the kind as the source does.
func (m Msg) Type() string { return m.Kind.String() }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg { return []node.Msg{Msg{Kind: MsgElection}, Msg{Kind: MsgElected}} }

// State is a process's protocol state (the chapter's Ativo = 1 / 0).
type State string

const (
	StateActive  State = "ACTIVE"
	StatePassive State = "PASSIVE"
	StateLeader  State = "LEADER"
)

// Config is the whole ring: Ids[i-1] (unique, positive) is the id of node i, and node n's
// successor is node 1. Index says which node to build; Factory fills it in.
type Config struct {
	Ids   []int
	Index int
}

func (c Config) validateRing() error {
	if len(c.Ids) == 0 {
		return errors.New("franklin: the ring needs at least 1 id")
	}
	if err := ids.Check("franklin", c.Ids); err != nil {
		return err
	}
	return nil
}

// Node is one Franklin process. It must not be copied after first use.
type Node struct {
	id, index, next, prev int `ringlab:"fixed"`
	state                 State
	started, done         bool
	round, leader         int
	got                   [2]map[int]int // got[side][round] = id; side 0 = left, 1 = right
}

const left, right = 0, 1

// New builds node cfg.Index of the ring cfg.Ids.
func New(cfg Config) (*Node, error) {
	if err := cfg.validateRing(); err != nil {
		return nil, err
	}
	return build(cfg)
}

// build makes node cfg.Index of a ring already validated: Factory checks
// the ids once, not once per node (O(n) each, O(n^2) for the ring).
func build(cfg Config) (*Node, error) {
	n := len(cfg.Ids)
	if cfg.Index < 1 || cfg.Index > n {
		return nil, fmt.Errorf("franklin: node index %d is outside the ring 1..%d", cfg.Index, n)
	}
	ring := node.Topology{N: n}
	return &Node{
		id: cfg.Ids[cfg.Index-1], index: cfg.Index,
		next: ring.Next(cfg.Index), prev: ring.Prev(cfg.Index),
		state: StateActive,
		got:   [2]map[int]int{{}, {}},
	}, nil
}

// Factory validates the ring once and returns a factory for its nodes.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validateRing(); err != nil {
		return nil, err
	}
	ids := slices.Clone(cfg.Ids)
	return func(i int) (node.Node, error) { return build(Config{Ids: ids, Index: i}) }, nil
}

// Step handles one input.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			n.start(out)
		}
	case node.InMsg:
		if m, ok := in.Msg.(Msg); ok {
			switch m.Kind {
			case MsgElection:
				n.onElection(m, out)
			case MsgElected:
				n.onElected(m, out)
			}
		}
	}
	out.Done = n.done
}

// start: "when p thinks the leader is dead and Active = 1, send (p) both ways".
func (n *Node) start(out *node.Output) {
	if n.started {
		return
	}
	n.started = true
	out.State(string(StateActive))
	n.enterRound(1, out)
}

func (n *Node) onElection(m Msg, out *node.Output) {
	n.start(out) // a process still waiting wakes and joins round 1
	if n.state == StatePassive {
		n.relay(m, out)
		return
	}
	side := right
	if m.Dir == Clockwise {
		side = left
	}
	n.got[side][m.Round] = m.Id
	n.compare(out)
}

// compare applies the chapter's three cases for as many rounds as are buffered.
func (n *Node) compare(out *node.Output) {
	for n.state == StateActive {
		e, okE := n.got[left][n.round]
		d, okD := n.got[right][n.round]
		if !okE || !okD {
			return
		}
		delete(n.got[left], n.round)
		delete(n.got[right], n.round)
		switch top := max(e, d); {
		case top < n.id:
			n.enterRound(n.round+1, out)
		case top > n.id:
			n.becomePassive(out)
		default:
			n.state = StateLeader
			out.State(string(StateLeader))
			out.LeaderAfter(n.id, n.round)
			out.Note("leader after %d rounds", n.round)
			n.leader = n.id
			out.Send(n.next, Msg{Kind: MsgElected, Id: n.id})
		}
	}
}

func (n *Node) enterRound(r int, out *node.Output) {
	n.round = r
	out.Note("round %d", r)
	out.Send(n.next, Msg{Kind: MsgElection, Id: n.id, Round: r, Dir: Clockwise})
	out.Send(n.prev, Msg{Kind: MsgElection, Id: n.id, Round: r, Dir: Counterclockwise})
}

// becomePassive relays what arrived early for later rounds, in round order.
func (n *Node) becomePassive(out *node.Output) {
	n.state = StatePassive
	out.State(string(StatePassive))
	for side, dir := range [2]Dir{Clockwise, Counterclockwise} {
		for _, r := range slices.Sorted(maps.Keys(n.got[side])) {
			n.relay(Msg{Kind: MsgElection, Id: n.got[side][r], Round: r, Dir: dir}, out)
		}
		clear(n.got[side])
	}
}

func (n *Node) relay(m Msg, out *node.Output) {
	if m.Dir == Clockwise {
		out.Send(n.next, m)
	} else {
		out.Send(n.prev, m)
	}
}

func (n *Node) onElected(m Msg, out *node.Output) {
	n.done = true
	if m.Id == n.id {
		return // the announcement went all the way round
	}
	n.leader = m.Id
	out.Leader(m.Id)
	out.Send(n.next, m)
}

// Status is a snapshot of a node for checkers.
type Status struct {
	Index  int   `json:"index"`
	Id     int   `json:"id"`
	State  State `json:"state"`
	Round  int   `json:"round"`  // the last round the node was active in
	Leader int   `json:"leader"` // 0 until known
	Done   bool  `json:"done"`
}

// Status returns the node's current snapshot.
func (n *Node) Status() Status {
	return Status{Index: n.index, Id: n.id, State: n.state, Round: n.round, Leader: n.leader, Done: n.done}
}

// MaxRounds is the theory's bound on rounds for a ring of n: floor(log2 n)+1
// (at most half the active processes survive each round with k >= 2).
func MaxRounds(n int) int { return bits.Len(uint(n)) }

// Messages is the exact message count of a run of the given rounds on a
// ring of n: 2n per round (one per link each way) plus n for ELECTED.
func Messages(n, rounds int) int { return 2*n*rounds + n }

// MaxMessages is Messages at MaxRounds: the theory's worst case.
func MaxMessages(n int) int { return Messages(n, MaxRounds(n)) }
