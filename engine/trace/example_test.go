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
