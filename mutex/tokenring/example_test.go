package tokenring_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/mutex/tokenring"
)

// Four nodes on a ring, node 1 holding the token; only node 3 wants the
// critical section, once. The token goes 1 -> 2 -> 3; node 3 enters, leaves
// one tick later and passes it to node 4, the last node to count itself
// finished, which retires it: 3 TOKEN messages, nothing left in flight.
func Example() {
	const n = 4
	factory, err := tokenring.Factory(tokenring.Config{N: n, Requests: []int{0, 0, 1, 0}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var entries []string
	sys := engine.System{
		Nodes: n, Factory: factory,
		Script: []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 3, Cmd: node.CmdRequest}},
		Workload: engine.ReactFunc(func(i int, ev node.Event, t int64) []node.Action {
			if ev.Kind != node.EvEnterCS {
				return nil
			}
			entries = append(entries, fmt.Sprintf("node %d at t=%d", i, t))
			return []node.Action{{At: 1, Node: i, Cmd: node.CmdRelease}}
		}),
	}
	res, err := sim.Runtime{Seed: 1}.Run(context.Background(), sys, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("entries:", entries)
	fmt.Println("messages:", res.ByType, "quiescent:", res.End == engine.Quiescent)
	// Output:
	// entries: [node 3 at t=2]
	// messages: map[TOKEN:3] quiescent: true
}
