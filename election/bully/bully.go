// Package bully is the Bully leader election (Garcia-Molina 1982; the course
// chapter on leader election calls it "Algoritmo do Brigão"): on a complete graph, the HIGHEST id among the live
// processes must win.
//
// A process that suspects the leader (CmdStart) or has just recovered
// (CmdRecover) sends ELECTION to every process with a higher id and starts
// the reply timer; when it expires with no OK, the process sends COORD to
// all. On ELECTION from a lower id a process answers OK and, unless it is
// already electing, starts its own election; on OK it stops the reply timer
// and starts the coordinator timer, which restarts the election if no COORD
// comes in time. A crashed process is simply given no input by the runtime.
//
// Decisions (the chapter leaves them open): a LEADER answering ELECTION also
// sends COORD back to the asker (else the asker, holding an OK, would wait
// for a COORD that already went by); a COORD from a lower id is not obeyed:
// the receiver starts an election (the highest live id must win), so a
// LEADER re-sends COORD to all. A COORD from a higher id always wins.
//
// Timers are ticks. SafeTimeouts(d) gives timeouts under which, with every
// message taking 1..d ticks, only the highest live process ever declares.
// A reply timeout shorter than a round trip gives split-brain; the tests
// reproduce it with ids 1..5, ReplyTimeout 3, CoordTimeout 20, messages to
// and from node 5 taking 5 ticks (others 1) and node 4 starting at tick 0:
// node 4 declares COORD(4) at tick 3, node 5 declares COORD(5) at tick 5,
// and until tick 10 nodes 1..3 follow 4 while 5 is LEADER.
//
// Messages: with one initiator, the lowest, and all alive, n(n-1)/2 ELECTION
// and as many OK (O(n^2)); the top alone needs only n-1 COORD. The tests
// check the chapter's worked example with exact counts, these counts, the
// split-brain run, recovery, and over random crashes, initiators and delays
// that every live process ends following the highest live id.
package bully

import (
	"errors"
	"fmt"
	"slices"

	"ringlab/election/internal/ids"
	"ringlab/engine/node"
)

// Kind is a message kind.
type Kind uint8

const (
	MsgElection Kind = iota + 1 // (ELECTION, p): p asks the higher ids to take over
	MsgOK                       // (OK, q): a higher process answers q's ELECTION
	MsgCoord                    // (COORD, p): p declares itself coordinator
)

func (k Kind) String() string {
	switch k {
	case MsgElection:
		return "ELECTION"
	case MsgOK:
		return "OK"
	case MsgCoord:
		return "COORD"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Msg is a Bully message. Id is p for ELECTION and COORD, and q, the process
// being answered, for OK, as the chapter writes them.
type Msg struct {
	Kind Kind `json:"-"`
	Id   int  `json:"id"`
}

// Type names the kind as the source does.
func (m Msg) Type() string { return m.Kind.String() }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgElection}, Msg{Kind: MsgOK}, Msg{Kind: MsgCoord}}
}

// State is a process's protocol state.
type State string

const (
	StateIdle      State = "IDLE"      // no election seen yet
	StateCandidate State = "CANDIDATE" // sent ELECTION, reply timer running
	StateWaiting   State = "WAITING"   // got OK, coordinator timer running
	StateLeader    State = "LEADER"
	StateFollower  State = "FOLLOWER"
)

// Timer ids.
const (
	TimerReply = 1 // waiting for OK
	TimerCoord = 2 // waiting for COORD after an OK
)

// Config is the whole group: Ids[i-1] (unique, positive) is the id of node
// i; every node talks to every other. Index says which node to build;
// Factory fills it in.
type Config struct {
	Ids          []int
	Index        int
	ReplyTimeout int64 // ticks to wait for an OK before sending COORD
	CoordTimeout int64 // ticks to wait, after an OK, for a COORD before restarting
}

// SafeTimeouts returns timeouts that outlast the protocol when every message
// takes between 1 and maxDelay ticks: a reply timeout longer than a round
// trip, and a coordinator timeout that covers the top's own reply timeout.
func SafeTimeouts(maxDelay int64) (reply, coord int64) {
	reply = 2*maxDelay + 1
	return reply, reply + 2*maxDelay
}

func (c Config) validateGroup() error {
	if len(c.Ids) == 0 {
		return errors.New("bully: the group needs at least 1 id")
	}
	if err := ids.Check("bully", c.Ids); err != nil {
		return err
	}
	if c.ReplyTimeout < 1 || c.CoordTimeout < 1 {
		return fmt.Errorf("bully: reply timeout %d and coordinator timeout %d must both be at least 1 tick", c.ReplyTimeout, c.CoordTimeout)
	}
	return nil
}

// Node is one Bully process. It must not be copied after first use.
type Node struct {
	cfg       Config `ringlab:"fixed"`
	id, index int    `ringlab:"fixed"`
	// hasHigher: some process has a higher id. The peers are found by
	// scanning cfg.Ids when needed: storing every node's peer lists would
	// cost O(n^2) memory for the group.
	hasHigher bool `ringlab:"fixed"`
	state     State
	leader    int
}

// New builds node cfg.Index of the group.
func New(cfg Config) (*Node, error) {
	if err := cfg.validateGroup(); err != nil {
		return nil, err
	}
	return build(cfg, slices.Max(cfg.Ids))
}

// build makes node cfg.Index of a group already validated: Factory checks
// the ids once, not once per node.
// build makes node cfg.Index of a group whose highest id is highest
// (computed once per group: a Factory builds every node of a large group).
func build(cfg Config, highest int) (*Node, error) {
	if cfg.Index < 1 || cfg.Index > len(cfg.Ids) {
		return nil, fmt.Errorf("bully: node index %d is outside the group 1..%d", cfg.Index, len(cfg.Ids))
	}
	n := &Node{cfg: cfg, id: cfg.Ids[cfg.Index-1], index: cfg.Index, state: StateIdle}
	n.hasHigher = n.id < highest
	return n, nil
}

// Factory validates the group once and returns a factory for its nodes.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validateGroup(); err != nil {
		return nil, err
	}
	cfg.Ids = slices.Clone(cfg.Ids)
	highest := slices.Max(cfg.Ids)
	return func(i int) (node.Node, error) {
		c := cfg
		c.Index = i
		return build(c, highest)
	}, nil
}

// Step handles one input.
// TimerName says what the node's timers mean (node.TimerNamer).
func (n *Node) TimerName(id int) string {
	switch id {
	case TimerReply:
		return "OK timeout"
	case TimerCoord:
		return "coordinator timeout"
	}
	return ""
}

func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart || in.Cmd == node.CmdRecover {
			n.onSuspect(out)
		}
	case node.InTick:
		n.onTimer(in.Timer, out)
	case node.InMsg:
		if m, ok := in.Msg.(Msg); ok {
			switch m.Kind {
			case MsgElection:
				n.onElection(in.From, m, out)
			case MsgOK:
				n.onOK(out)
			case MsgCoord:
				n.onCoord(m, out)
			}
		}
	}
	out.Done = n.state == StateLeader || n.state == StateFollower
}

func (n *Node) electing() bool { return n.state == StateCandidate || n.state == StateWaiting }

// onSuspect: "when p suspects the leader" and "when a process recovers".
func (n *Node) onSuspect(out *node.Output) {
	if n.electing() || n.state == StateLeader {
		return
	}
	n.startElection(out)
}

func (n *Node) startElection(out *node.Output) {
	out.StopTimer(TimerCoord)
	if !n.hasHigher {
		n.declare(out)
		return
	}
	n.setState(StateCandidate, out)
	for j, id := range n.cfg.Ids {
		if id > n.id {
			out.Send(j+1, Msg{Kind: MsgElection, Id: n.id})
		}
	}
	out.SetTimer(TimerReply, n.cfg.ReplyTimeout)
}

// declare: "on the reply timer expiring, send (COORD, p) to all".
func (n *Node) declare(out *node.Output) {
	out.StopTimer(TimerReply)
	n.setState(StateLeader, out)
	n.follow(n.id, out)
	for j := range n.cfg.Ids {
		if j+1 != n.index {
			out.Send(j+1, Msg{Kind: MsgCoord, Id: n.id})
		}
	}
}

func (n *Node) onTimer(id int, out *node.Output) {
	switch {
	case id == TimerReply && n.state == StateCandidate:
		n.declare(out)
	case id == TimerCoord && n.state == StateWaiting:
		out.Note("no COORD after OK: new election")
		n.startElection(out)
	}
}

// onElection: "on (ELECTION, q) with q < p, answer (OK, q)".
func (n *Node) onElection(from int, m Msg, out *node.Output) {
	if m.Id >= n.id {
		return
	}
	out.Send(from, Msg{Kind: MsgOK, Id: m.Id})
	switch {
	case n.state == StateLeader:
		out.Send(from, Msg{Kind: MsgCoord, Id: n.id})
	case !n.electing():
		n.startElection(out)
	}
}

// onOK: "on (OK, p), stop the reply timer".
func (n *Node) onOK(out *node.Output) {
	if n.state != StateCandidate {
		return
	}
	out.StopTimer(TimerReply)
	n.setState(StateWaiting, out)
	out.SetTimer(TimerCoord, n.cfg.CoordTimeout)
}

func (n *Node) onCoord(m Msg, out *node.Output) {
	if m.Id < n.id {
		if !n.electing() {
			out.Note("COORD(%d) from a lower id: new election", m.Id)
			n.startElection(out)
		}
		return
	}
	out.StopTimer(TimerReply)
	out.StopTimer(TimerCoord)
	n.setState(StateFollower, out)
	n.follow(m.Id, out)
}

func (n *Node) setState(s State, out *node.Output) {
	if n.state != s {
		n.state = s
		out.State(string(s))
	}
}

func (n *Node) follow(leader int, out *node.Output) {
	if n.leader != leader {
		n.leader = leader
		out.Leader(leader)
	}
}

// Status is a snapshot of a node for checkers.
type Status struct {
	Index  int   `json:"index"`
	Id     int   `json:"id"`
	State  State `json:"state"`
	Leader int   `json:"leader"` // 0 until known
}

// Status returns the node's current snapshot.
func (n *Node) Status() Status {
	return Status{Index: n.index, Id: n.id, State: n.state, Leader: n.leader}
}

// ElectionMessages is the theory's count when only the lowest process starts
// and all n are alive: each process sends ELECTION once to every higher one,
// n(n-1)/2, and each is answered by one OK.
func ElectionMessages(n int) int { return n * (n - 1) / 2 }
