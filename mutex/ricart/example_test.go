package ricart_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/mutex/ricart"
)

// Three nodes ask for the critical section at once; each leaves it one tick
// after entering. Ricart-Agrawala grants it in (timestamp, id) order, and
// every entry costs 2(N-1) messages: N-1 requests and N-1 replies.
func Example() {
	const n = 3
	factory, err := ricart.Factory(ricart.Config{N: n})
	if err != nil {
		fmt.Println(err)
		return
	}
	var order []int
	sys := engine.System{
		Nodes: n, Factory: factory,
		Script: []node.Action{{Node: 1, Cmd: node.CmdRequest}, {Node: 2, Cmd: node.CmdRequest}, {Node: 3, Cmd: node.CmdRequest}},
		Workload: engine.ReactFunc(func(i int, ev node.Event, _ int64) []node.Action {
			if ev.Kind != node.EvEnterCS {
				return nil
			}
			order = append(order, i)
			return []node.Action{{At: 1, Node: i, Cmd: node.CmdRelease}}
		}),
	}
	res, err := sim.Runtime{Seed: 1}.Run(context.Background(), sys, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("entries, in order:", order)
	fmt.Println("messages:", res.ByType, "=", res.Messages/int64(len(order)), "per entry; theory", ricart.MessagesPerEntry(n, false))
	// Output:
	// entries, in order: [1 2 3]
	// messages: map[REPLY:6 REQUEST:6] = 4 per entry; theory 4
}
