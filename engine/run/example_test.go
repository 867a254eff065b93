package run_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"ringlab/engine/demo"
	"ringlab/engine/run"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Run runs a System on a Runtime, judges its properties at every event and
// at the end, and hands the events to renderers. Here a ping makes four
// hops on a ring of three nodes, against a bound of three messages:
// Outcome.Err is the typed *run.Violation a caller acts on.
func ExampleRun() {
	sys := demo.System(3, 4, 3)
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
	sys := demo.System(3, 2, 3)
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
	out, err := run.Run(context.Background(), demo.System(3, 2, 3), run.Recorded{Log: saved, Runtime: "sim"}, run.Options{})
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
