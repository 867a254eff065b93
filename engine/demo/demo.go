// Package demo is the smallest algorithm on the engine, a ping passed round
// a ring, written against the public API as a user's own would be. The
// engine's examples run it, and it is the shortest complete answer to
// "what must an algorithm provide?": a message type, a node with Step,
// Clone and AppendKey, and one engine.Algorithm value.
package demo

import (
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Ping is the one message: the hop it makes.
type Ping struct {
	Hop int // 1 for the first ping, one more at every node it passes
}

// Type names the message kind, as counts and pictures show it.
func (Ping) Type() string { return "PING" }

// Pinger is node i of a ring of N: told to start, it sends the first ping;
// given hop h, it passes hop h+1 to the next node, until Hops hops.
type Pinger struct {
	I, N int // this node's index and the ring's size, fixed at construction
	Hops int // the hops the ping makes in all
	Got  int // the pings this node has received
}

// Step handles one input.
func (p *Pinger) Step(in node.Input, out *node.Output) {
	hop := 1
	if in.Kind == node.InMsg {
		hop = in.Msg.(Ping).Hop + 1
		p.Got++
	}
	if hop <= p.Hops {
		out.Send(p.I%p.N+1, Ping{Hop: hop})
	}
	out.Done = true
}

// Clone returns an independent copy (Pinger holds no slice or map).
func (p *Pinger) Clone() node.Node { c := *p; return &c }

// AppendKey appends what changes as the node runs: the pings it has had.
func (p *Pinger) AppendKey(b []byte) []byte { return node.AppendInt(b, p.Got) }

// System is a ping making hops hops round a ring of n nodes, node 1
// starting, judged by termination and by a bound of bound messages (0: no
// bound).
func System(n, hops, bound int) engine.System {
	props := []check.Property{check.Termination{}}
	if bound > 0 {
		props = append(props, check.MessageBound{Max: int64(bound), Formula: "n"})
	}
	return engine.System{
		Name: "ping", Nodes: n, Topology: trace.TopoRing,
		Factory:    func(i int) (node.Node, error) { return &Pinger{I: i, N: n, Hops: hops}, nil },
		Messages:   []node.Msg{Ping{}},
		Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Properties: props,
	}
}

// Algorithm is the ping as one value every tool takes: its parameters
// become flags (--nodes, --hops).
func Algorithm() engine.Algorithm {
	return engine.Algorithm{
		Name:  "ping",
		Usage: "a ping round a ring",
		Params: []engine.Param{
			{Name: "nodes", Usage: "nodes on the ring", Default: 3},
			{Name: "hops", Usage: "hops the ping makes", Default: 4},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			return System(p.Int("nodes"), p.Int("hops"), 0), nil
		},
	}
}
