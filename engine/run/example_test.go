package run_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Ping is the one message of the example system: the hop it makes.
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

// pingSystem is a ping making hops hops on a ring of three nodes, judged
// against a bound of three messages.
func pingSystem(hops int) engine.System {
	return engine.System{
		Name: "ping", Nodes: 3, Topology: trace.TopoRing,
		Factory:  func(i int) (node.Node, error) { return &pinger{i: i, n: 3, hops: hops}, nil },
		Messages: []node.Msg{Ping{}},
		Script:   []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Properties: []check.Property{check.Termination{},
			check.MessageBound{Max: 3, Formula: "n"}},
	}
}

// Run runs a System on a Runtime, judges its properties at every event and
// at the end, and hands the events to renderers. Here a ping makes four
// hops on a ring of three nodes, against a bound of three messages:
// Outcome.Err is the typed *run.Violation a caller acts on.
func ExampleRun() {
	sys := pingSystem(4)
	text, err := trace.NewRenderer("text", os.Stdout)
	if err != nil {
		panic(err)
	}
	out, err := run.Run(context.Background(), sys, sim.Runtime{Seed: 1, Messages: true},
		run.Options{Renderers: []trace.Renderer{text}, Seed: 1, Replay: "ping --seed 1"})
	if err != nil {
		panic(err)
	}
	if err := text.Flush(); err != nil {
		panic(err)
	}
	var v *run.Violation
	if errors.As(out.Err(), &v) {
		fmt.Printf("%s: %s\n", v.Property, v.Detail)
	}
	// Output:
	// t=0      node 1   cmd   start
	// t=0      node 1   send  PING(Hop=1) to node 2
	// t=1      node 2   recv  PING(Hop=1) from node 1
	// t=1      node 2   send  PING(Hop=2) to node 3
	// t=2      node 3   recv  PING(Hop=2) from node 2
	// t=2      node 3   send  PING(Hop=3) to node 1
	// t=3      node 1   recv  PING(Hop=3) from node 3
	// t=3      node 1   send  PING(Hop=4) to node 2
	// t=4      node 2   recv  PING(Hop=4) from node 1
	//
	// ping on sim, 3 nodes, seed 1: 5 steps, t=4
	// messages: 4 (PING 4)
	// ✓ termination
	// ✗ message bound: 4 messages, bound n = 3
	// replay: ping --seed 1
	// message bound: 4 messages, bound n = 3
}

// A saved NDJSON log is judged by the same properties as the run that
// wrote it: ReadLog reads and validates it, and Recorded replays its
// events as a runtime would.
func ExampleRecorded() {
	var log bytes.Buffer
	js, err := trace.NewRenderer("json", &log)
	if err != nil {
		panic(err)
	}
	sys := pingSystem(2)
	if _, err := run.Run(context.Background(), sys, sim.Runtime{Messages: true},
		run.Options{Renderers: []trace.Renderer{js}, Replay: "ping"}); err != nil {
		panic(err)
	}
	if err := js.Flush(); err != nil {
		panic(err)
	}

	saved, err := run.ReadLog(context.Background(), run.ReadOptions{}, run.Source{Name: "ping.ndjson", R: &log})
	if err != nil {
		panic(err)
	}
	out, err := run.Run(context.Background(), pingSystem(2), run.Recorded{Log: saved, Runtime: "sim"}, run.Options{})
	if err != nil {
		panic(err)
	}
	for _, v := range out.Summary.Verdicts {
		fmt.Println(trace.VerdictLine(v))
	}
	fmt.Println("err:", out.Err())
	// Output:
	// ✓ termination
	// ✓ message bound: 2 messages, bound n = 3
	// err: <nil>
}
