package demo_test

import (
	"context"
	"fmt"

	"ringlab/engine/demo"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// A ping of five hops round a ring of three nodes, on the simulator.
func Example() {
	sys := demo.System(3, 5, 0)
	res, err := sim.Runtime{Seed: 1, Messages: true}.Run(context.Background(), sys, func(e *trace.Event) {
		if e.Kind == trace.KindRecv {
			fmt.Printf("t=%d: node %d gets hop %d\n", e.T, e.Node, e.Msg.Value.(demo.Ping).Hop)
		}
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.End, res.Messages, "messages")
	// Output:
	// t=1: node 2 gets hop 1
	// t=2: node 3 gets hop 2
	// t=3: node 1 gets hop 3
	// t=4: node 2 gets hop 4
	// t=5: node 3 gets hop 5
	// quiescent 5 messages
}
