package check_test

import (
	"fmt"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Mutual exclusion judged over three hand-made events: node 2 enters the
// critical section while node 1 is still inside.
func Example() {
	props := check.NewSet(&check.MutualExclusion{})
	for _, e := range []trace.Event{
		{T: 1, Node: 1, Kind: trace.KindEnterCS},
		{T: 2, Node: 2, Kind: trace.KindEnterCS},
		{T: 3, Node: 1, Kind: trace.KindExitCS},
	} {
		for _, v := range props.Observe(&e) {
			fmt.Printf("t=%d: %s\n", v.T, v.Detail)
		}
	}
	for _, v := range props.Finish(check.End{Terminated: true}) {
		fmt.Println(trace.VerdictLine(v))
	}
	// Output:
	// t=2: node 1 and node 2 are in the critical section at once (t=2)
	// ✗ mutual exclusion: node 1 and node 2 are in the critical section at once (t=2)
}
