// Package electiontest is the test driver shared by the elections' package
// tests (smallestid, anonymous, idlist, changroberts, franklin, yoyo): it
// calls each node's Step, queues the sends, delivers them FIFO or in a
// seeded random order, counts messages by type and keeps each node's
// events. No goroutines, no time: the etcd-io/raft style of testing a pure
// state machine.
package electiontest

import (
	"slices"

	"ringlab/engine/node"
)

// Envelope is a message in flight.
type Envelope struct {
	From, To int
	Msg      node.Msg
}

// TB is what a Net needs of *testing.T and *rapid.T.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Net drives nodes of type N. Delivery is FIFO when Pick is nil;
// otherwise Pick(k) chooses which of the k pending messages goes next
// (messages may overtake each other, unless FIFOLinks): a rapid test draws
// it, so a failing delivery order shrinks to a short one.
type Net[N node.Node] struct {
	T     TB
	Nodes []N // 1-based
	Queue []Envelope
	Pick  func(k int) int
	// FIFOLinks keeps every link FIFO: Pick chooses a link (by one of its
	// messages), and the oldest message on that link goes next.
	FIFOLinks bool
	Count     map[string]int
	Events    [][]node.Event // per node, 1-based
	Done      []bool         // the node's last Output.Done
	// OnStep, if set, sees every step's input and output.
	OnStep func(i int, in node.Input, out *node.Output)
	out    node.Output
}

// Build makes nodes 1..n with f (err is the Factory's constructor error,
// which fails the test).
func Build[N node.Node](t TB, f node.Factory, err error, n int) *Net[N] {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	w := &Net[N]{T: t, Nodes: make([]N, n+1), Count: map[string]int{},
		Events: make([][]node.Event, n+1), Done: make([]bool, n+1)}
	for i := 1; i <= n; i++ {
		nd, err := f(i)
		if err != nil {
			t.Fatal(err)
		}
		w.Nodes[i] = nd.(N)
	}
	return w
}

// Step gives node i one input and queues what it sends.
func (w *Net[N]) Step(i int, in node.Input) {
	w.out.Reset()
	w.Nodes[i].Step(in, &w.out)
	for _, s := range w.out.Sends {
		w.Queue = append(w.Queue, Envelope{From: i, To: s.To, Msg: s.Msg})
		w.Count[s.Msg.Type()]++
	}
	w.Events[i] = append(w.Events[i], w.out.Events...)
	w.Done[i] = w.out.Done
	if w.OnStep != nil {
		w.OnStep(i, in, &w.out)
	}
}

// Start gives CmdStart to the nodes at the given indices, in that order.
func (w *Net[N]) Start(indices ...int) {
	for _, i := range indices {
		w.Step(i, node.Input{Kind: node.InCmd, Cmd: node.CmdStart})
	}
}

// Run delivers messages until none is in flight; failing to get there
// within a generous budget (100 n^2 deliveries) is a termination failure.
func (w *Net[N]) Run() {
	w.T.Helper()
	n := len(w.Nodes) - 1
	for budget := 100 * n * n; len(w.Queue) > 0; budget-- {
		if budget == 0 {
			w.T.Fatalf("no termination: %d messages still in flight", len(w.Queue))
		}
		k := 0
		if w.Pick != nil {
			k = w.Pick(len(w.Queue))
		}
		if w.FIFOLinks {
			p := w.Queue[k]
			k = slices.IndexFunc(w.Queue, func(e Envelope) bool { return e.From == p.From && e.To == p.To })
		}
		e := w.Queue[k]
		w.Queue = append(w.Queue[:k], w.Queue[k+1:]...)
		w.Step(e.To, node.Input{Kind: node.InMsg, From: e.From, Msg: e.Msg})
	}
}

// Leaders returns the leader ids node i announced, in order.
func (w *Net[N]) Leaders(i int) []int {
	var ids []int
	for _, e := range w.Events[i] {
		if e.Kind == node.EvLeader {
			ids = append(ids, e.Leader)
		}
	}
	return ids
}

// Notes counts the notes with this text at node i.
func (w *Net[N]) Notes(i int, text string) int {
	c := 0
	for _, e := range w.Events[i] {
		if e.Kind == node.EvNote && e.Note == text {
			c++
		}
	}
	return c
}

// ForEachPermutation calls f with every permutation of 1..n (Heap's
// algorithm); f must not keep the slice.
func ForEachPermutation(n int, f func([]int)) {
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
