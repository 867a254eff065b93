package explore_test

import (
	"fmt"

	"ringlab/engine/explore"
)

// Color is a node's state, an enum with names.
type Color uint8

func (c Color) String() string { return [...]string{"WHITE", "BLACK"}[c] }

// A node's state as the explorer shows it by default: the state by its
// name, the configuration left out, an array indexed by node cut to the
// run's 3 nodes.
func ExampleShow() {
	type Node struct {
		n     int `ringlab:"fixed"`
		state Color
		seen  [4]bool
		round int
	}
	sh := explore.Show(&Node{n: 3, state: 1, seen: [4]bool{false, true, true, false}, round: 2}, 3, nil)
	fmt.Println(sh.State)
	for _, f := range sh.Fields {
		fmt.Printf("%s: %s\n", f.Name, f.Value)
	}
	// Output:
	// BLACK
	// seen: true, true, false
	// round: 2
}
