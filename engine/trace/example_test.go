package trace_test

import (
	"bytes"
	"fmt"
	"os"

	"ringlab/engine/trace"
)

// A log is NDJSON: a header, one line per event, a summary. Writing one
// event with the json renderer and loading it back gives the same event.
func Example() {
	var log bytes.Buffer
	r, err := trace.NewRenderer("json", &log)
	if err != nil {
		panic(err)
	}
	h := trace.NewHeader("demo", "sim", 2, 7, nil, trace.TopoComplete, nil, "ringlab demo --seed 7")
	if err := r.(trace.HeaderRenderer).Header(h); err != nil {
		panic(err)
	}
	leader := 2
	if err := r.Event(&trace.Event{V: trace.Version, Seq: 1, T: 3, Node: 1, Kind: trace.KindLeader, Leader: &leader}); err != nil {
		panic(err)
	}
	if err := r.Flush(); err != nil {
		panic(err)
	}
	os.Stdout.Write(log.Bytes()[bytes.IndexByte(log.Bytes(), '\n')+1:]) // the event's line, after the header's

	l, err := trace.Load(&log)
	if err != nil {
		panic(err)
	}
	e := l.Events[0]
	fmt.Printf("%d event: t=%d node %d %s, leader id %d\n", len(l.Events), e.T, e.Node, e.Kind, e.LeaderID())
	// Output:
	// {"v":1,"seq":1,"t":3,"node":1,"kind":"leader","leader":2,"lc":0}
	// 1 event: t=3 node 1 leader, leader id 2
}

// Every renderer takes the same events: here two, drawn by the text and
// the mermaid renderer (a sequence diagram, one participant per node).
func ExampleNewRenderer() {
	h := trace.NewHeader("demo", "sim", 2, 1, nil, trace.TopoComplete, nil, "demo --seed 1")
	events := []trace.Event{
		{V: trace.Version, Seq: 1, T: 0, Node: 1, Kind: trace.KindSend, From: 1, To: 2, Msg: trace.WrapMsg(Ping{N: 1}), LC: 1},
		{V: trace.Version, Seq: 2, T: 1, Node: 2, Kind: trace.KindRecv, From: 1, To: 2, Msg: trace.WrapMsg(Ping{N: 1}), LC: 2},
	}
	for _, format := range []string{"text", "mermaid"} {
		r, err := trace.NewRenderer(format, os.Stdout)
		if err != nil {
			panic(err)
		}
		if hr, ok := r.(trace.HeaderRenderer); ok {
			if err := hr.Header(h); err != nil {
				panic(err)
			}
		}
		for i := range events {
			if err := r.Event(&events[i]); err != nil {
				panic(err)
			}
		}
		if err := r.Flush(); err != nil {
			panic(err)
		}
	}
	// Output:
	// t=0      node 1   send  PING(N=1) to node 2
	// t=1      node 2   recv  PING(N=1) from node 1
	// %% ringlab: demo, sim, seed 1
	// %% replay: demo --seed 1
	// sequenceDiagram
	//     participant n1 as node 1
	//     participant n2 as node 2
	//     n1->>n2: PING(N=1)
}

// Ping is the message of the renderer example.
type Ping struct{ N int }

// Type names the message kind.
func (Ping) Type() string { return "PING" }
