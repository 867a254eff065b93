package bully_test

import (
	"context"
	"fmt"

	"ringlab/election/bully"
	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Five processes, all alive, every message taking one tick; the lowest id
// starts an election. Each ELECTION goes to every higher id and is answered
// OK: n(n-1)/2 of each. The highest id hears no OK and sends COORD to the
// n-1 others; an ELECTION that reaches it after that is answered with a
// COORD too (three here). Every process follows the highest id.
func Example() {
	ids := []int{1, 2, 3, 4, 5}
	reply, coord := bully.SafeTimeouts(1)
	factory, err := bully.Factory(bully.Config{Ids: ids, ReplyTimeout: reply, CoordTimeout: coord})
	if err != nil {
		fmt.Println(err)
		return
	}
	leaders := map[int]int{}
	sys := engine.System{Nodes: len(ids), Factory: factory, Script: []node.Action{{Node: 1, Cmd: node.CmdStart}}}
	res, err := sim.Runtime{Seed: 1}.Run(context.Background(), sys, func(e *trace.Event) {
		if e.Kind == trace.KindLeader {
			leaders[e.Node] = e.LeaderID()
		}
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("leaders by node:", leaders)
	fmt.Println("messages:", res.ByType)
	// Output:
	// leaders by node: map[1:5 2:5 3:5 4:5 5:5]
	// messages: map[COORD:7 ELECTION:10 OK:10]
}
