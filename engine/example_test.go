package engine_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Ping is the one message of the example algorithm: the hop it makes.
type Ping struct{ Hop int }

// Type names the message kind.
func (Ping) Type() string { return "PING" }

// pinger passes a ping round a ring of n nodes until it has made hops
// hops; the node told to start sends the first.
type pinger struct{ i, n, hops int }

func (p *pinger) Step(in node.Input, out *node.Output) {
	hop := 1
	if in.Kind == node.InMsg {
		hop = in.Msg.(Ping).Hop + 1
	}
	if hop <= p.hops {
		out.Send(p.i%p.n+1, Ping{Hop: hop})
	}
	out.Done = true
}

// An Algorithm is described once: its typed parameters and a Build that
// makes a fresh System from their values. Params checks every value's
// type; Build's System then runs on any Runtime, here the simulator.
func Example() {
	alg := engine.Algorithm{
		Name:  "ping",
		Usage: "a ping round a ring",
		Params: []engine.Param{
			{Name: "nodes", Usage: "nodes on the ring", Default: 3},
			{Name: "hops", Usage: "hops the ping makes", Default: 4},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			n, hops := p.Int("nodes"), p.Int("hops")
			return engine.System{
				Name: "ping", Nodes: n, Topology: trace.TopoRing,
				Factory:  func(i int) (node.Node, error) { return &pinger{i: i, n: n, hops: hops}, nil },
				Messages: []node.Msg{Ping{}},
				Script:   []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
				Properties: []check.Property{check.Termination{},
					check.MessageBound{Max: int64(hops), Formula: "hops"}},
			}, nil
		},
	}
	p := alg.Defaults()
	fmt.Println(p.Give("nodes", "four"))
	if err := p.Give("hops", 5); err != nil {
		panic(err)
	}
	sys, err := alg.Build(p, engine.Env{Runtime: "sim"})
	if err != nil {
		panic(err)
	}
	res, err := sim.Runtime{Seed: 1, Messages: true}.Run(context.Background(), sys, func(e *trace.Event) {
		if e.Kind == trace.KindRecv {
			fmt.Printf("t=%d: %s gets %s%+v from %s\n", e.T, sys.NodeName(e.Node), e.Msg.Type(), e.Msg.Value, sys.NodeName(e.From))
		}
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %s, %d messages\n", sys.Name, res.End, res.Messages)
	// Output:
	// parameter "nodes" is int, not string
	// t=1: node 2 gets PING{Hop:1} from node 1
	// t=2: node 3 gets PING{Hop:2} from node 2
	// t=3: node 1 gets PING{Hop:3} from node 3
	// t=4: node 2 gets PING{Hop:4} from node 1
	// t=5: node 3 gets PING{Hop:5} from node 2
	// ping: quiescent, 5 messages
}
