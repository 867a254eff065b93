package changroberts_test

import (
	"context"
	"fmt"

	"ringlab/election/changroberts"
	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Five nodes on a ring, every one starting an election: each id travels
// until a larger one swallows it, the largest comes home, and its
// announcement goes once round the ring. The counts are those of this
// arrangement, whatever the schedule.
func Example() {
	ids := []int{3, 1, 4, 5, 2}
	factory, err := changroberts.Factory(ids)
	if err != nil {
		fmt.Println(err)
		return
	}
	var script []node.Action
	for i := range ids {
		script = append(script, node.Action{Node: i + 1, Cmd: node.CmdStart})
	}
	leaders := map[int]int{}
	sys := engine.System{Nodes: len(ids), Factory: factory, Script: script}
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
	// messages: map[ELECTED:5 ELECTION:10]
}
