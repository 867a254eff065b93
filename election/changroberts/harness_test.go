package changroberts

// This file is the same in ringspec, anonymous, idlist and changroberts (only
// the package clause differs), ready to move to a shared election test
// package.

import (
	"math/rand/v2"
	"testing"

	"ringlab/internal/node"
)

// envelope is a message in flight.
type envelope struct {
	from, to int
	msg      node.Msg
}

// net is the tests' driver: it calls Step, queues the sends, delivers them
// FIFO (rng == nil) or in a random order, counts messages by type and keeps
// each node's events. No goroutines, no time.
type net[N node.Node] struct {
	t      *testing.T
	nodes  []N // 1-based
	queue  []envelope
	rng    *rand.Rand
	count  map[string]int
	events [][]node.Event // per node, 1-based
	done   []bool         // the node's last Output.Done
	onStep func(i int, in node.Input, out *node.Output)
	out    node.Output
}

// build makes nodes 1..n with f (err is Factory's error).
func build[N node.Node](t *testing.T, f node.Factory, err error, n int) *net[N] {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	w := &net[N]{t: t, nodes: make([]N, n+1), count: map[string]int{},
		events: make([][]node.Event, n+1), done: make([]bool, n+1)}
	for i := 1; i <= n; i++ {
		nd, err := f(i)
		if err != nil {
			t.Fatal(err)
		}
		w.nodes[i] = nd.(N)
	}
	return w
}

func (w *net[N]) step(i int, in node.Input) {
	w.out.Reset()
	w.nodes[i].Step(in, &w.out)
	for _, s := range w.out.Sends {
		w.queue = append(w.queue, envelope{from: i, to: s.To, msg: s.Msg})
		w.count[s.Msg.Type()]++
	}
	w.events[i] = append(w.events[i], w.out.Events...)
	w.done[i] = w.out.Done
	if w.onStep != nil {
		w.onStep(i, in, &w.out)
	}
}

// start gives CmdStart to the nodes at the given indices, in that order.
func (w *net[N]) start(indices ...int) {
	for _, i := range indices {
		w.step(i, node.Input{Kind: node.InCmd, Cmd: node.CmdStart})
	}
}

// run delivers messages until none is in flight; failing to get there
// within a generous budget is a termination failure.
func (w *net[N]) run() {
	w.t.Helper()
	n := len(w.nodes) - 1
	for budget := 100 * n * n; len(w.queue) > 0; budget-- {
		if budget == 0 {
			w.t.Fatalf("no termination: %d messages still in flight", len(w.queue))
		}
		k := 0
		if w.rng != nil {
			k = w.rng.IntN(len(w.queue))
		}
		e := w.queue[k]
		w.queue = append(w.queue[:k], w.queue[k+1:]...)
		w.step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg})
	}
}

// notes counts the notes with this text at node i.
func (w *net[N]) notes(i int, text string) int {
	c := 0
	for _, e := range w.events[i] {
		if e.Kind == node.EvNote && e.Note == text {
			c++
		}
	}
	return c
}

// forEachPermutation calls f with every permutation of 1..n (Heap's
// algorithm); f must not keep the slice.
func forEachPermutation(n int, f func([]int)) {
	a := make([]int, n)
	for i := range a {
		a[i] = i + 1
	}
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			f(a)
			return
		}
		for i := 0; i < k-1; i++ {
			gen(k - 1)
			if k%2 == 0 {
				a[i], a[k-1] = a[k-1], a[i]
			} else {
				a[0], a[k-1] = a[k-1], a[0]
			}
		}
		gen(k - 1)
	}
	gen(n)
}
