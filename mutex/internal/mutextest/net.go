package mutextest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ringlab/engine/node"
)

// Net is a tiny deterministic network for pure nodes of type N: a list of
// messages in flight that the test (or a seeded random source) delivers one
// at a time, message counts by type, a transcript of decisions, and a
// mutual-exclusion watch. It has no clock: timers are fired by hand (Fire).
type Net[N node.Node] struct {
	Nodes   []N // 1-based
	Flight  []Envelope
	Counts  map[string]int // messages sent, by Type
	Log     []string       // "N32 enter", "N3 -> N12 REPLY", ...
	InCS    []int          // nodes in the CS now, in entry order
	Overlap bool           // two nodes were in the CS at once
	Entries [][2]int       // Key of each entry, in order
	Timers  map[int]bool   // node -> it has a pending timer

	name func(i int) string
	key  func(i int) [2]int
	out  node.Output
}

// Envelope is a message in flight.
type Envelope struct {
	From, To int
	Msg      node.Msg
}

// Options name the nodes in the transcript and key the entries.
type Options struct {
	// Name is node i's name in Log; nil means "N<i>".
	Name func(i int) string
	// Key identifies an entry in Entries, e.g. the request's (T, id); nil
	// means (0, i).
	Key func(i int) [2]int
}

// NewNet builds nodes 1..n from factory f, each converted to N.
func NewNet[N node.Node](t testing.TB, f node.Factory, n int, o Options) *Net[N] {
	t.Helper()
	h := &Net[N]{Nodes: make([]N, n+1), Counts: map[string]int{}, Timers: map[int]bool{}, name: o.Name, key: o.Key}
	if h.name == nil {
		h.name = func(i int) string { return fmt.Sprintf("N%d", i) }
	}
	if h.key == nil {
		h.key = func(i int) [2]int { return [2]int{0, i} }
	}
	for i := 1; i <= n; i++ {
		nd, err := f(i)
		if err != nil {
			t.Fatal(err)
		}
		h.Nodes[i] = nd.(N)
	}
	return h
}

// Build is NewNet over the nodes factory makes from cfg; a cfg the factory
// refuses fails t.
func Build[N node.Node, C any](t testing.TB, factory func(C) (node.Factory, error), cfg C, n int, o Options) *Net[N] {
	t.Helper()
	f, err := factory(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return NewNet[N](t, f, n, o)
}

// Step runs one input at node i and records what came out.
func (h *Net[N]) Step(i int, in node.Input) {
	h.out.Reset()
	h.Nodes[i].Step(in, &h.out)
	for _, tm := range h.out.Timers {
		h.Timers[i] = tm.After >= 0
	}
	for _, e := range h.out.Events {
		switch e.Kind {
		case node.EvEnterCS:
			h.Overlap = h.Overlap || len(h.InCS) > 0
			h.InCS = append(h.InCS, i)
			h.Entries = append(h.Entries, h.key(i))
			h.Log = append(h.Log, h.name(i)+" enter")
		case node.EvExitCS:
			h.InCS = slices.DeleteFunc(h.InCS, func(x int) bool { return x == i })
			h.Log = append(h.Log, h.name(i)+" exit")
		}
	}
	for _, s := range h.out.Sends {
		h.Flight = append(h.Flight, Envelope{i, s.To, s.Msg})
		h.Counts[s.Msg.Type()]++
		h.Log = append(h.Log, fmt.Sprintf("%s -> %s %s", h.name(i), h.name(s.To), s.Msg.Type()))
	}
}

// Cmd gives node i command c.
func (h *Net[N]) Cmd(i int, c node.Cmd) { h.Step(i, node.Input{Kind: node.InCmd, Cmd: c}) }

// Fire delivers node i's pending timer with the given id.
func (h *Net[N]) Fire(t testing.TB, i, id int) {
	t.Helper()
	if !h.Timers[i] {
		t.Fatalf("%s has no pending timer", h.name(i))
	}
	h.Timers[i] = false
	h.Step(i, node.Input{Kind: node.InTick, Timer: id})
}

// DeliverAt delivers the k-th message in flight, whatever is ahead of it.
func (h *Net[N]) DeliverAt(k int) {
	e := h.Flight[k]
	h.Flight = slices.Delete(h.Flight, k, k+1)
	h.Step(e.To, node.Input{Kind: node.InMsg, From: e.From, Msg: e.Msg})
}

// HeadOfLink returns the index of the oldest message on the link of message k.
func (h *Net[N]) HeadOfLink(k int) int {
	return slices.IndexFunc(h.Flight, func(e Envelope) bool { return e.From == h.Flight[k].From && e.To == h.Flight[k].To })
}

// Deliver delivers the oldest message in flight from `from` to `to` with
// type typ ("" = any): naming a type lets a test overtake on purpose.
func (h *Net[N]) Deliver(t testing.TB, from, to int, typ string) {
	t.Helper()
	for k, e := range h.Flight {
		if e.From == from && e.To == to && (typ == "" || e.Msg.Type() == typ) {
			h.DeliverAt(k)
			return
		}
	}
	t.Fatalf("no %s message in flight from %s to %s", typ, h.name(from), h.name(to))
}

// Drain delivers everything in flight, oldest first (which is FIFO per link).
func (h *Net[N]) Drain() {
	for len(h.Flight) > 0 {
		h.DeliverAt(0)
	}
}

// Mark returns the transcript length, for Since.
func (h *Net[N]) Mark() int { return len(h.Log) }

// Since returns the transcript from mark m on.
func (h *Net[N]) Since(m int) []string { return slices.Clone(h.Log[m:]) }

// Total is the number of messages sent.
func (h *Net[N]) Total() int {
	t := 0
	for _, c := range h.Counts {
		t += c
	}
	return t
}

// Quota returns left counts of q requests for each of nodes 1..n, for RunRandom.
func Quota(n, q int) []int {
	left := make([]int, n+1)
	for i := 1; i <= n; i++ {
		left[i] = q
	}
	return left
}

// RunRandom is a random workload: node i requests left[i] more times (also
// while WANTED or HELD, which exercises the remembered request) and holders
// release whenever the driver picks them. With fifo, a random link delivers
// its oldest message; without, any message in flight may go next. It stops
// when nothing is left to do. Each step draws one number: rng.IntN(messages
// in flight + nodes with requests left + nodes in the CS).
func (h *Net[N]) RunRandom(rng *rand.Rand, left []int, fifo bool) {
	n := len(h.Nodes) - 1
	for {
		var want []int
		for i := 1; i <= n; i++ {
			if left[i] > 0 {
				want = append(want, i)
			}
		}
		inCS := slices.Clone(h.InCS)
		total := len(h.Flight) + len(want) + len(inCS)
		if total == 0 {
			return
		}
		switch k := rng.IntN(total); {
		case k < len(h.Flight) && fifo:
			h.DeliverAt(h.HeadOfLink(k))
		case k < len(h.Flight):
			h.DeliverAt(k)
		case k < len(h.Flight)+len(want):
			i := want[k-len(h.Flight)]
			left[i]--
			h.Cmd(i, node.CmdRequest)
		default:
			h.Cmd(inCS[k-len(h.Flight)-len(want)], node.CmdRelease)
		}
	}
}
