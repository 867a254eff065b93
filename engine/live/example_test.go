package live_test

import (
	"context"
	"fmt"

	"ringlab/engine/demo"
	"ringlab/engine/live"
	"ringlab/engine/trace"
)

// Runtime runs the same System as the simulator, each node on a goroutine
// of its own, in real time. The times of a live run vary from run to run;
// what the nodes do, here one ping passed round a ring, does not. The
// observer's calls are serialized, in the order of the events.
func ExampleRuntime() {
	sys := demo.System(3, 5, 0)
	res, err := live.Runtime{Messages: true}.Run(context.Background(), sys, func(e *trace.Event) {
		if e.Kind == trace.KindRecv {
			fmt.Printf("node %d gets hop %d from node %d\n", e.Node, e.Msg.Value.(demo.Ping).Hop, e.From)
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
