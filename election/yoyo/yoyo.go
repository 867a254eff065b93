// Package yoyo is the YoYo leader election on any connected undirected graph
// (Santoro, as the course chapter on leader election gives it): the
// SMALLEST id wins.
//
// Phase 1: every process sends its id (ID) to its neighbours and orients
// each edge from the smaller id to the larger, making a DAG whose sources
// are the local minima. Phase 2 repeats iterations of two halves. YO-: a
// source sends its id on all out-edges; any other process waits for a value
// on every in-edge and sends the minimum m on all out-edges. -YO: a sink
// answers YES to the senders of m and NO to the others; an internal process,
// once every out-edge has voted, does the same if all votes were YES and
// otherwise answers NO to all. A NO reverses the edge it travels on, so a
// source that hears a NO stops being one. Iterations are numbered and a
// value that arrives early for the next one is buffered.
//
// Pruning, so that the run ends (Santoro's rules, as implemented here): a
// process that got the same value on several in-edges keeps the first in
// neighbour order and asks the others, with the prune flag on its vote, to
// delete the edge; and a process that after its votes would be left with a
// single edge, an in-edge (a leaf sink, including a sink all of whose values
// were the same, and an internal process all of whose out-edges were pruned),
// asks that last neighbour to delete it too and leaves the election (PRUNED).
// Pruning never disconnects what is left, so the process left with no edge
// at all is the last source: the LEADER. It floods LEADER over the original
// graph; everyone forwards it once and is done.
//
// Messages: exactly 2m ID, two per live edge and iteration in phase 2
// (YO and a vote), and 2m-(n-1) LEADER; O(m log n) in all. A disconnected
// graph is refused unless Config.AllowDisconnected: then each component
// elects its own minimum, the split-brain the chapter warns of. The tests
// check exact counts on small graphs, one leader with the minimum id and
// agreement on rings, grids, complete and random connected graphs under
// random delivery orders, and two leaders on a partitioned graph.
package yoyo

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
	MsgID     Kind = iota + 1 // phase 1: the sender's id
	MsgYo                     // YO-: the smallest source id seen, down an out-edge
	MsgYes                    // -YO: the value was the minimum and all below agreed
	MsgNo                     // -YO: it was not; reverses the edge
	MsgLeader                 // the announcement, flooded
)

var kindNames = [...]string{MsgID: "ID", MsgYo: "YO", MsgYes: "YES", MsgNo: "NO", MsgLeader: "LEADER"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Msg is a YoYo message.
type Msg struct {
	Kind  Kind `json:"-"`
	Id    int  `json:"id,omitempty"`    // ID, YO, LEADER
	Iter  int  `json:"iter,omitempty"`  // YO, YES, NO: the phase-2 iteration
	Prune bool `json:"prune,omitempty"` // YES, NO: also delete this edge
}

// Type names the kind.
func (m Msg) Type() string { return m.Kind.String() }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg {
	return []node.Msg{Msg{Kind: MsgID}, Msg{Kind: MsgYo}, Msg{Kind: MsgYes}, Msg{Kind: MsgNo}, Msg{Kind: MsgLeader}}
}

// State is a process's role in the current iteration, or its outcome.
type State string

const (
	StateSource   State = "SOURCE"   // only out-edges
	StateInternal State = "INTERNAL" // in- and out-edges
	StateSink     State = "SINK"     // only in-edges
	StatePruned   State = "PRUNED"   // left the election; waits for LEADER
	StateLeader   State = "LEADER"
	StateFollower State = "FOLLOWER" // knows the leader
)

// Config is the whole graph: Ids[i-1] (unique, positive) is the id of node
// i of Topology. Index says which node to build; Factory fills it in.
type Config struct {
	Topology node.Topology
	Ids      []int
	Index    int
	// AllowDisconnected accepts a graph in pieces: each piece then elects
	// its own leader (split-brain). Off, such a graph is an error.
	AllowDisconnected bool
}

func (c Config) validateGraph() error {
	if c.Topology.N < 1 {
		return errors.New("yoyo: the graph needs at least 1 node")
	}
	if len(c.Ids) != c.Topology.N {
		return fmt.Errorf("yoyo: %d ids for a graph of %d nodes; give one id per node", len(c.Ids), c.Topology.N)
	}
	if err := ids.Check("yoyo", c.Ids); err != nil {
		return err
	}
	if !c.AllowDisconnected && !c.Topology.Connected() {
		return errors.New("yoyo: the graph is not connected, so each piece would elect its own leader; connect it, or allow a disconnected graph to show the split-brain")
	}
	return nil
}

// Edge directions, as this process sees them.
const (
	edgeGone = 0  // pruned
	edgeIn   = -1 // from a smaller id (or reversed by a NO)
	edgeOut  = 1
)

// Node is one YoYo process. It must not be copied after first use.
type Node struct {
	id, index int         `ringlab:"fixed"`
	nbrs      []int       `ringlab:"fixed"` // neighbour indices, ascending
	dir       map[int]int // neighbour -> edgeIn, edgeOut or edgeGone; complete once oriented
	state     State
	started   bool
	leader    int
	done      bool

	iter    int                 // iterations finished; the current one is iter+1
	waiting bool                // a non-source waiting for this iteration's values
	vals    map[int]map[int]int // iteration -> sender -> value
	min     int                 // the value sent down this iteration
	votes   map[int]Msg         // out-neighbour -> its vote this iteration
}

// New builds node cfg.Index of the graph.
func New(cfg Config) (*Node, error) {
	if err := cfg.validateGraph(); err != nil {
		return nil, err
	}
	return build(cfg)
}

// build makes node cfg.Index of a graph already validated: Factory checks
// the ids and connectivity once, not once per node (O(n + m) each).
func build(cfg Config) (*Node, error) {
	if cfg.Index < 1 || cfg.Index > cfg.Topology.N {
		return nil, fmt.Errorf("yoyo: node index %d is outside the graph 1..%d", cfg.Index, cfg.Topology.N)
	}
	return &Node{
		id: cfg.Ids[cfg.Index-1], index: cfg.Index,
		nbrs: slices.Clone(cfg.Topology.Neighbors(cfg.Index)),
		dir:  map[int]int{}, vals: map[int]map[int]int{}, votes: map[int]Msg{},
	}, nil
}

// Factory validates the graph once and returns a factory for its nodes.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validateGraph(); err != nil {
		return nil, err
	}
	cfg.Ids = slices.Clone(cfg.Ids)
	return func(i int) (node.Node, error) {
		c := cfg
		c.Index = i
		return build(c)
	}, nil
}

// Step handles one input.
func (n *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			n.start(out)
		}
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		if !ok {
			break
		}
		n.start(out) // a process still waiting wakes on its first message
		switch m.Kind {
		case MsgID:
			n.onID(in.From, m, out)
		case MsgYo:
			n.onYo(in.From, m, out)
		case MsgYes, MsgNo:
			n.onVote(in.From, m, out)
		case MsgLeader:
			n.onLeader(in.From, m, out)
		}
	}
	out.Done = n.done
}

// start is phase 1: send the id to every neighbour.
func (n *Node) start(out *node.Output) {
	if n.started {
		return
	}
	n.started = true
	for _, j := range n.nbrs {
		out.Send(j, Msg{Kind: MsgID, Id: n.id})
	}
	if len(n.nbrs) == 0 {
		n.begin(out)
	}
}

// onID orients the edge from the smaller id to the larger.
func (n *Node) onID(from int, m Msg, out *node.Output) {
	n.dir[from] = edgeOut
	if m.Id < n.id {
		n.dir[from] = edgeIn
	}
	if len(n.dir) == len(n.nbrs) {
		n.begin(out)
	}
}

func (n *Node) onLeader(from int, m Msg, out *node.Output) {
	if n.done {
		return
	}
	n.leader, n.done = m.Id, true
	n.setState(StateFollower, out)
	out.Leader(m.Id)
	for _, j := range n.nbrs {
		if j != from {
			out.Send(j, m)
		}
	}
}

func (n *Node) setState(s State, out *node.Output) {
	if n.state != s {
		n.state = s
		out.State(string(s))
	}
}

// Status is a snapshot of a node for checkers.
type Status struct {
	Index  int   `json:"index"`
	Id     int   `json:"id"`
	State  State `json:"state"`
	Iter   int   `json:"iter"`   // phase-2 iterations finished (the leader's: the run's)
	Leader int   `json:"leader"` // 0 until known
	Done   bool  `json:"done"`
}

// Status returns the node's current snapshot.
func (n *Node) Status() Status {
	return Status{Index: n.index, Id: n.id, State: n.state, Iter: n.iter, Leader: n.leader, Done: n.done}
}
