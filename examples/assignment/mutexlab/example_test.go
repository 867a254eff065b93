package mutexlab_test

import (
	"context"
	"fmt"

	"example.com/ringlab-examples/assignment/mutexlab"
	"example.com/ringlab-examples/assignment/ricart"
	"ringlab/engine"
	"ringlab/engine/run"
	"ringlab/engine/sim"
)

// The reference solution on the simulator, every node asking twice: the
// verdicts of the properties every run is judged by.
func ExampleAlgorithm() {
	alg := mutexlab.Algorithm("ricart-agrawala", ricart.New, ricart.MessageTypes())
	p := alg.Defaults()
	_ = p.Give("requests", 2)
	sys, err := alg.Build(p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := run.Run(context.Background(), sys, sim.Runtime{Seed: 1}, run.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range out.Summary.Verdicts {
		fmt.Printf("%s: %v\n", v.Property, v.OK)
	}
	fmt.Println(out.Err())
	// Output:
	// mutual exclusion: true
	// every request granted: true
	// termination: true
	// <nil>
}
