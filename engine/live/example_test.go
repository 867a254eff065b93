package live_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/live"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Ping is the one message of the example system: the hop it makes.
type Ping struct{ Hop int }

// Type names the message kind.
func (Ping) Type() string { return "PING" }

// ringPinger passes a ping round a ring of n nodes until it has made hops
// hops; the node told to start sends the first.
type ringPinger struct{ i, n, hops int }

func (p *ringPinger) Step(in node.Input, out *node.Output) {
	hop := 1
	if in.Kind == node.InMsg {
		hop = in.Msg.(Ping).Hop + 1
	}
	if hop <= p.hops {
		out.Send(p.i%p.n+1, Ping{Hop: hop})
	}
	out.Done = true
}

// Runtime runs the same System as the simulator, each node on a goroutine
// of its own, in real time. The times of a live run vary from run to run;
// what the nodes do, here one ping passed round a ring, does not. The
// observer's calls are serialized, in the order of the events.
func ExampleRuntime() {
	sys := engine.System{
		Name: "ping", Nodes: 3, Topology: trace.TopoRing,
		Factory:    func(i int) (node.Node, error) { return &ringPinger{i: i, n: 3, hops: 5}, nil },
		Messages:   []node.Msg{Ping{}},
		Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Properties: []check.Property{check.Termination{}},
	}
	res, err := live.Runtime{Messages: true}.Run(context.Background(), sys, func(e *trace.Event) {
		if e.Kind == trace.KindRecv {
			fmt.Printf("node %d gets hop %d from node %d\n", e.Node, e.Msg.Value.(Ping).Hop, e.From)
		}
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s after %d messages\n", res.End, res.Messages)
	// Output:
	// node 2 gets hop 1 from node 1
	// node 3 gets hop 2 from node 2
	// node 1 gets hop 3 from node 3
	// node 2 gets hop 4 from node 1
	// node 3 gets hop 5 from node 2
	// quiescent after 5 messages
}
