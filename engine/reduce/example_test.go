package reduce_test

import (
	"fmt"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

// waiter keeps a Lamport clock and the timestamps of the requests it has
// queued; done is kept but no longer read once the queue is empty.
type waiter struct {
	clock int
	queue []int
	done  int
}

func (w *waiter) Step(node.Input, *node.Output) {}

func (w *waiter) Values(v *node.Values) {
	v.Clock(&w.clock)
	for k := range w.queue {
		v.Stamp(&w.queue[k])
	}
	if len(w.queue) == 0 {
		v.Unused(&w.done)
	}
}

// The clock shift as the checker does it: read the least value, lower
// every clock and timestamp by it less one, in a copy.
func Example() {
	w := &waiter{clock: 9, queue: []int{7, 8}, done: 2}
	f, _ := reduce.Read(w)
	least, _ := f.Least()
	d := least - 1
	down := func(v int) int { return v - d }
	c := reduce.Map(w, reduce.Mapping{Clock: down, Stamp: down, Dead: true}).(*waiter)
	fmt.Println(f.Clocks, f.Stamps, "->", c.clock, c.queue, c.done, "; the original:", w.clock, w.queue)
	// Output: [9] [7 8] -> 3 [1 2] 2 ; the original: 9 [7 8]
}
