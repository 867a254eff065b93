// Package tokenring is mutual exclusion by a token circulating on a logical
// ring, as the course chapter on mutual exclusion gives it.
//
// Nodes 1..N form the ring 1 -> 2 -> ... -> N -> 1; node Config.StartWith
// (default 1) is built holding the only token. On receiving the TOKEN a node
// that wants the critical section (CS) enters it and passes the token to its
// successor when it leaves; a node that does not want it passes it on at once.
// An entry costs 1 to N TOKEN messages (1 when everybody wants the CS, N when
// only one node does and the token has to come all the way round).
//
// Decisions the chapter leaves open:
//   - Start: the holder keeps the token until its first input; on CmdStart it
//     passes it (or uses it, if a CmdRequest came first). Runtimes send
//     CmdStart to every node at time 0; other nodes ignore it.
//   - Termination: a token that circulates with nobody wanting it never
//     stops. Config.Requests gives each node's workload (how many times it
//     will ask for the CS). A node that has been served all its requests is
//     "finished"; the first time a token leaves a finished node, the node
//     adds itself to the token's Finished count. A node that makes the count
//     reach N retires the token instead of passing it (note "token ... retired"),
//     so a finite workload ends with nothing in flight. Without Requests the
//     token circulates forever and a runtime stops the run by its budget.
//     Requests beyond a node's count after the token retired are not served.
//   - A node has one request outstanding at a time; a CmdRequest while WANTED
//     or HELD is counted and served on a later visit of the token.
//   - Faults: a holder that crashes loses the token. Config.RegenTimeout
//     (ticks, 0 = never) lets a node that has wanted the CS that long without
//     seeing the token create a new one (note "token ... regenerated"); a false
//     timeout (the holder was only slow) makes two tokens and two nodes in the
//     CS. A node that already holds a token passes a second one on at once,
//     so both keep circulating, each retiring on its own count.
//   - A node rebuilt after a crash (CmdRecover) holds no token, even the
//     StartWith node.
//
// States RELEASED, WANTED, HELD. Notes "token <id> created", "... regenerated"
// and "... retired" let a checker count the live tokens.
//
// The tests check: exact TOKEN counts (N-1 for one entry per node, 1 per entry
// under full load, N per entry for a lone requester), mutual exclusion and
// termination over random workloads and delays, the lost token after a crash,
// regeneration after a real crash, and two nodes in the CS after a false one.
package tokenring

import (
	"fmt"
	"slices"

	"ringlab/engine/node"
)

// Msg is the TOKEN. Origin and Gen name the token (the node that created it,
// and how many tokens that node had created before); Finished counts the
// nodes that have finished their workload, for termination.
type Msg struct {
	Origin   int `json:"origin"`
	Gen      int `json:"gen"`
	Finished int `json:"finished"`
}

// Type returns "TOKEN".
func (Msg) Type() string { return "TOKEN" }

// MessageTypes lists one value of every message type a node may send, under
// any schedule and fault: the registry a codec or a log reader decodes by.
func MessageTypes() []node.Msg { return []node.Msg{Msg{}} }

func (m Msg) id() [2]int { return [2]int{m.Origin, m.Gen} }

// TokenID names the token, ORIGIN.GEN, as the notes and the one-token
// property do. It is no String method: it leaves out Finished, and a
// message's own text must tell every two values apart (vet checks it).
func (m Msg) TokenID() string { return fmt.Sprintf("%d.%d", m.Origin, m.Gen) }

// States.
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// timerRegen fires when a WANTED node has not seen the token for RegenTimeout ticks.
const timerRegen = 1

// Config configures a run; Index selects the node New builds.
type Config struct {
	N            int   // nodes on the ring, >= 2
	Index        int   // this node, 1..N (set by Factory)
	StartWith    int   // the node that starts with the token, 1..N; 0 means 1
	Requests     []int // nil: unbounded; else one count per node (len N, each >= 0)
	RegenTimeout int64 // ticks a WANTED node waits before creating a token; 0 = never
}

func (c Config) validate() error {
	if c.N < 2 {
		return fmt.Errorf("a token ring needs at least 2 nodes, got %d", c.N)
	}
	if c.StartWith < 0 || c.StartWith > c.N {
		return fmt.Errorf("start-with %d: must be a node index 1..%d (0 means 1)", c.StartWith, c.N)
	}
	if c.Requests != nil && len(c.Requests) != c.N {
		return fmt.Errorf("requests: need one count per node (%d), got %d", c.N, len(c.Requests))
	}
	for i, r := range c.Requests {
		if r < 0 {
			return fmt.Errorf("requests of node %d: %d, must be >= 0", i+1, r)
		}
	}
	if c.RegenTimeout < 0 {
		return fmt.Errorf("regen timeout %d: must be 0 (never) or a positive number of ticks", c.RegenTimeout)
	}
	return nil
}

// Factory validates cfg once and returns a node.Factory for its N nodes.
func Factory(cfg Config) (node.Factory, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Requests = append([]int(nil), cfg.Requests...)
	return func(i int) (node.Node, error) {
		c := cfg
		c.Index = i
		return New(c)
	}, nil
}

// Node is one process on the ring.
type Node struct {
	cfg      Config `ringlab:"fixed"`
	state    string
	pending  int // further requests after the current one
	served   int
	token    Msg
	holding  bool
	fresh    bool     // built holding the initial token, no input yet
	counted  [][2]int // tokens this node has added itself to as finished; never changed in place, so clones share it
	regens   int
	finished bool // cfg.Requests is set and all of this node's requests were served
}

// New builds node cfg.Index in its initial state.
func New(cfg Config) (*Node, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Index < 1 || cfg.Index > cfg.N {
		return nil, fmt.Errorf("node index %d: must be 1..%d", cfg.Index, cfg.N)
	}
	if cfg.StartWith == 0 {
		cfg.StartWith = 1
	}
	n := &Node{cfg: cfg, state: StateReleased}
	if cfg.Index == cfg.StartWith {
		n.token, n.holding, n.fresh = Msg{Origin: cfg.Index}, true, true
	}
	n.finished = cfg.Requests != nil && cfg.Requests[cfg.Index-1] == 0
	return n, nil
}

// Step handles one input.
// TimerName says what the node's timer means (node.TimerNamer).
func (n *Node) TimerName(id int) string {
	if id == timerRegen {
		return "regeneration timeout"
	}
	return ""
}

func (n *Node) Step(in node.Input, out *node.Output) {
	if n.fresh {
		n.fresh = false
		if in.Kind == node.InCmd && in.Cmd == node.CmdRecover {
			n.holding, n.token = false, Msg{} // it never held it: nothing of it is left
			out.Note("recovered with amnesia: no token")
		} else {
			out.Note("token %s created", n.token.TokenID())
		}
	}
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdStart:
			if n.holding && n.state != StateHeld {
				n.holding = false
				n.pass(n.token, out)
			}
		case node.CmdRequest:
			n.onRequest(out)
		case node.CmdRelease:
			n.onRelease(out)
		}
	case node.InMsg:
		if m, ok := in.Msg.(Msg); ok {
			n.onToken(m, out)
		}
	case node.InTick:
		if in.Timer == timerRegen && n.state == StateWanted && !n.holding {
			n.regens++
			m := Msg{Origin: n.cfg.Index, Gen: n.regens}
			out.Note("token %s regenerated: no token seen for %d ticks", m.TokenID(), n.cfg.RegenTimeout)
			n.onToken(m, out)
		}
	}
	out.Done = n.state == StateReleased && n.pending == 0 && !n.holding
}

func (n *Node) onRequest(out *node.Output) {
	if n.state != StateReleased {
		n.pending++
		out.Note("request queued behind the current one (%d waiting)", n.pending)
		return
	}
	n.want(out)
	if n.holding { // the initial holder, before the token moved
		n.enter(out)
	}
}

func (n *Node) want(out *node.Output) {
	n.setState(StateWanted, out)
	if n.cfg.RegenTimeout > 0 {
		out.SetTimer(timerRegen, n.cfg.RegenTimeout)
	}
}

func (n *Node) onToken(m Msg, out *node.Output) {
	if n.holding || n.state != StateWanted {
		n.pass(m, out) // not wanted here, or a second token while holding one
		return
	}
	n.token, n.holding = m, true
	n.enter(out)
}

func (n *Node) enter(out *node.Output) {
	if n.cfg.RegenTimeout > 0 {
		out.StopTimer(timerRegen)
	}
	n.setState(StateHeld, out)
	out.EnterCS()
}

func (n *Node) onRelease(out *node.Output) {
	if n.state != StateHeld {
		out.Note("release ignored: not in the CS (state %s)", n.state)
		return
	}
	out.ExitCS()
	if n.cfg.Requests != nil { // without a count to reach, nothing reads served: a count kept would make the state space infinite
		n.served++
	}
	n.setState(StateReleased, out)
	n.holding = false
	n.finished = n.cfg.Requests != nil && n.pending == 0 && n.served >= n.cfg.Requests[n.cfg.Index-1]
	n.pass(n.token, out)
	if n.pending > 0 {
		n.pending--
		n.want(out)
	}
}

// pass sends m to the successor, first adding this node to its Finished
// count if due, and retires it instead when every node is finished.
func (n *Node) pass(m Msg, out *node.Output) {
	if n.finished && !n.hasCounted(m.id()) {
		m.Finished++
		n.counted = slices.Concat(n.counted, [][2]int{m.id()})
	}
	if n.cfg.Requests != nil && m.Finished >= n.cfg.N {
		out.Note("token %s retired: every node is finished", m.TokenID())
		return
	}
	out.Send(n.cfg.Index%n.cfg.N+1, m)
}

func (n *Node) hasCounted(id [2]int) bool {
	for _, c := range n.counted {
		if c == id {
			return true
		}
	}
	return false
}

func (n *Node) setState(s string, out *node.Output) {
	n.state = s
	out.State(s)
}

// Status is a snapshot for checkers and tests.
type Status struct {
	State   string
	Holding bool // this node holds a token (in the CS, or before the start)
	Served  int  // entries so far, counted against Config.Requests (0 without)
	Pending int  // further requests queued locally
}

// Status returns a snapshot of the node.
func (n *Node) Status() Status {
	return Status{State: n.state, Holding: n.holding, Served: n.served, Pending: n.pending}
}
