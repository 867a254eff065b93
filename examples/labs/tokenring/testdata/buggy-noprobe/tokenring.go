// Package tokenring is mutual exclusion by a token on a logical ring
// 1 -> 2 -> ... -> N -> 1 whose token may be lost on a link, and is
// regenerated: a submission with a student's classic mistake, for the
// grading test: the keeper never probes, so a lost token stays lost.
//
// Node 1 creates the token when it is started. A node that receives the
// TOKEN while it wants the critical section (CS) enters and passes the
// token to its successor when it leaves; any other node passes it on at
// once.
//
// A timeout alone cannot tell a lost token from a slow one: a node that
// regenerates because it waited long would make a second token whenever
// the first was only late. So node 1, the keeper, uses its timer only to
// decide when to look: it sends a PROBE round the ring, after the token.
// Links are FIFO, so the probe cannot overtake the token: either some
// node holds the token when the probe passes (Found), or the token comes
// back to the keeper before the probe does (seen). A probe that returns
// with neither proves the token gone, and the keeper alone regenerates
// it, with the next generation. One probe is out at a time.
//
// With a finite workload every node that has been served all its requests
// counts itself once in each generation's Finished; the node that makes
// the count reach N retires the token, and the keeper stops probing when
// a probe reports every node finished (Busy false), so a run ends.
package tokenring

import (
	"fmt"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// Kind is a message kind.
type Kind string

// Message kinds.
const (
	MsgToken Kind = "TOKEN" // the token: holding it is the permission
	MsgProbe Kind = "PROBE" // the keeper's question: is the token still there?
)

// Msg is a message of the ring.
type Msg struct {
	Kind     Kind `json:"kind"`
	Gen      int  `json:"gen,omitempty"`      // TOKEN: its generation, 0 for the first, +1 at each regeneration
	Finished int  `json:"finished,omitempty"` // TOKEN: nodes that counted themselves finished in this generation
	Found    bool `json:"found,omitempty"`    // PROBE: a node held the token when the probe passed
	Busy     bool `json:"busy,omitempty"`     // PROBE: a node still has requests to be served
}

// Type names the message kind.
func (m Msg) Type() string { return string(m.Kind) }

// TokenID names a token by its generation, as the notes and the kit's one
// token property do: "1.GEN" (node 1 makes every generation).
func (m Msg) TokenID() string { return fmt.Sprintf("1.%d", m.Gen) }

// MessageTypes lists one value of every message type a node sends, the
// token first (the kit's one token property follows it).
func MessageTypes() []node.Msg { return []node.Msg{Msg{Kind: MsgToken}, Msg{Kind: MsgProbe}} }

// States.
const (
	StateReleased = "RELEASED"
	StateWanted   = "WANTED"
	StateHeld     = "HELD"
)

// probeTimer is the keeper's timer: when it fires, the keeper probes.
const probeTimer = 1

// ProbeEvery is the keeper's timeout, in ticks, between two probes.
const ProbeEvery = 20

// Node is one process on the ring; node 1 is also the keeper.
type Node struct {
	n, id    int // ring size and this node's index
	requests int // the requests each node is served before it is finished; 0: for ever

	state   string // RELEASED, WANTED or HELD
	served  int    // entries so far (counted only when requests > 0)
	holding bool   // this node holds the token (it is in the CS)
	token   Msg    // the token held
	counted int    // 1 + the generation this node last counted itself finished in; 0: none

	// the keeper's (node 1's)
	probing bool // a probe is out
	seen    bool // the token passed the keeper since the probe left
	gen     int  // the latest generation made
}

// New builds node i of n, each node to be served requests times (0: for
// ever).
func New(n, i, requests int) node.Node {
	return &Node{n: n, id: i, requests: requests, state: StateReleased}
}

// Algorithm is the lab's algorithm value, for every tool: the
// mutual-exclusion kit gives it the workload and the properties of a
// token algorithm, among them "one token"; node 1 is started at tick 0.
func Algorithm() engine.Algorithm {
	return kit.Spec{
		Name:  "token-ring-lab",
		Usage: "a token ring whose keeper regenerates a lost token",
		Plan: func(_ engine.Params, n, requests int) (kit.Plan, error) {
			return kit.Plan{Kind: kit.Token, Nodes: n, Messages: MessageTypes(), Regen: true,
				Start: []node.Action{{Node: 1, Cmd: node.CmdStart}},
				Factory: func(i int) (node.Node, error) {
					if i < 1 || i > n {
						return nil, fmt.Errorf("node index must be 1..%d, got %d", n, i)
					}
					return New(n, i, requests), nil
				}}, nil
		},
	}.Algorithm()
}

// Step handles one input.
func (nd *Node) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		switch in.Cmd {
		case node.CmdStart:
			nd.start(out)
		case node.CmdRequest:
			nd.request(out)
		case node.CmdRelease:
			nd.release(out)
		}
	case node.InMsg:
		m, ok := in.Msg.(Msg)
		switch {
		case !ok:
		case m.Kind == MsgToken:
			nd.onToken(m, out)
		case m.Kind == MsgProbe:
			nd.onProbe(m, out)
		}
	case node.InTick:
		if in.Timer == probeTimer {
			nd.probe(out)
		}
	}
}

// start is the keeper's: it creates the token and arms its timer.
func (nd *Node) start(out *node.Output) {
	if nd.id != 1 {
		return
	}
	t := Msg{Kind: MsgToken}
	out.Note("token %s created", t.TokenID())
	out.SetTimer(probeTimer, ProbeEvery)
	nd.onToken(t, out)
}

// request makes a RELEASED node WANTED: it waits for the token.
func (nd *Node) request(out *node.Output) {
	if nd.state != StateReleased {
		out.Note("request ignored: already %s", nd.state)
		return
	}
	nd.setState(StateWanted, out)
}

// onToken enters with the token if this node wants the CS; else it
// passes the token on.
func (nd *Node) onToken(m Msg, out *node.Output) {
	nd.seen = true
	if nd.state != StateWanted || nd.holding {
		nd.pass(m, out)
		return
	}
	nd.token, nd.holding = m, true
	nd.setState(StateHeld, out)
	out.EnterCS()
}

// release leaves the CS and passes the token on.
func (nd *Node) release(out *node.Output) {
	if nd.state != StateHeld {
		return
	}
	out.ExitCS()
	if nd.requests > 0 {
		nd.served++
	}
	nd.setState(StateReleased, out)
	nd.holding = false
	nd.pass(nd.token, out)
}

// pass sends the token to the successor; a finished node first counts
// itself in its generation, and the node whose count makes N retires it.
func (nd *Node) pass(m Msg, out *node.Output) {
	if nd.finished() && nd.counted != m.Gen+1 {
		m.Finished++
		nd.counted = m.Gen + 1
	}
	if nd.requests > 0 && m.Finished >= nd.n {
		out.Note("token %s retired: every node is finished", m.TokenID())
		return
	}
	out.Send(nd.next(), m)
}

// probe is the keeper's timeout: while it holds the token it looks
// again later.
func (nd *Node) probe(out *node.Output) {
	if nd.holding { // the bug: not holding it, the keeper sends no probe and arms no timer
		out.SetTimer(probeTimer, ProbeEvery)
	}
}

// onProbe marks a passing probe with what this node knows and forwards
// it; at the keeper, the probe is home. Nobody held the token and it did
// not come back first: it is lost, and the keeper makes the next
// generation if somebody still needs it. It probes again later while
// anybody does.
func (nd *Node) onProbe(m Msg, out *node.Output) {
	if nd.id != 1 {
		m.Found = m.Found || nd.holding
		m.Busy = m.Busy || !nd.finished()
		out.Send(nd.next(), m)
		return
	}
	nd.probing = false
	if m.Busy {
		out.SetTimer(probeTimer, ProbeEvery)
	}
	if m.Found || nd.seen || !m.Busy {
		return
	}
	nd.gen++
	t := Msg{Kind: MsgToken, Gen: nd.gen}
	out.Note("token %s regenerated: the probe came back without it", t.TokenID())
	nd.onToken(t, out)
}

// finished reports whether this node has been served all its requests.
func (nd *Node) finished() bool { return nd.requests > 0 && nd.served >= nd.requests }

// next is the successor on the ring.
func (nd *Node) next() int { return nd.id%nd.n + 1 }

func (nd *Node) setState(s string, out *node.Output) {
	nd.state = s
	out.State(s)
}
