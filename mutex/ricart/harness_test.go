package ricart

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ringlab/internal/node"
)

// harness is a tiny deterministic network for the pure nodes: a list of
// messages in flight that the test (or a seeded random source) delivers one at
// a time, message counts by type, a transcript of decisions, and a mutual
// exclusion watch.
type harness struct {
	t       testing.TB
	nodes   []*Node // 1-based
	flight  []envelope
	counts  map[string]int
	log     []string // "N32 enter", "N3 -> N12 REPLY", ...
	inCS    []int
	overlap bool     // two nodes were in the CS at once
	entries [][2]int // (T, id) of each entry, in order
	timers  map[int]bool
	out     node.Output
}

type envelope struct {
	from, to int
	msg      node.Msg
}

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	f, err := Factory(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, nodes: make([]*Node, cfg.N+1), counts: map[string]int{}, timers: map[int]bool{}}
	for i := 1; i <= cfg.N; i++ {
		nd, err := f(i)
		if err != nil {
			t.Fatal(err)
		}
		h.nodes[i] = nd.(*Node)
	}
	return h
}

func (h *harness) name(i int) string { return fmt.Sprintf("N%d", h.nodes[i].id) }

// step runs one input at node i and records what came out.
func (h *harness) step(i int, in node.Input) {
	h.out.Reset()
	h.nodes[i].Step(in, &h.out)
	for _, tm := range h.out.Timers {
		h.timers[i] = tm.After >= 0
	}
	for _, e := range h.out.Events {
		switch e.Kind {
		case node.EvEnterCS:
			h.overlap = h.overlap || len(h.inCS) > 0
			h.inCS = append(h.inCS, i)
			st := h.nodes[i].Status()
			h.entries = append(h.entries, [2]int{st.RequestT, st.ID})
			h.log = append(h.log, h.name(i)+" enter")
		case node.EvExitCS:
			h.inCS = slices.DeleteFunc(h.inCS, func(x int) bool { return x == i })
			h.log = append(h.log, h.name(i)+" exit")
		}
	}
	for _, s := range h.out.Sends {
		h.flight = append(h.flight, envelope{i, s.To, s.Msg})
		h.counts[s.Msg.Type()]++
		h.log = append(h.log, fmt.Sprintf("%s -> %s %s", h.name(i), h.name(s.To), s.Msg.Type()))
	}
}

func (h *harness) cmd(i int, c node.Cmd) { h.step(i, node.Input{Kind: node.InCmd, Cmd: c}) }

// fire delivers node i's pending timer.
func (h *harness) fire(i int) {
	if !h.timers[i] {
		h.t.Fatalf("%s has no pending timer", h.name(i))
	}
	h.timers[i] = false
	h.step(i, node.Input{Kind: node.InTick, Timer: timerReplies})
}

// deliverAt delivers the k-th message in flight.
func (h *harness) deliverAt(k int) {
	e := h.flight[k]
	h.flight = slices.Delete(h.flight, k, k+1)
	h.step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg})
}

// deliver delivers the oldest message in flight from node `from` to node `to`.
func (h *harness) deliver(from, to int) {
	h.t.Helper()
	for k, e := range h.flight {
		if e.from == from && e.to == to {
			h.deliverAt(k)
			return
		}
	}
	h.t.Fatalf("no message in flight from %s to %s", h.name(from), h.name(to))
}

// drain delivers everything in flight, oldest first.
func (h *harness) drain() {
	for len(h.flight) > 0 {
		h.deliverAt(0)
	}
}

// mark returns the transcript length, for since.
func (h *harness) mark() int { return len(h.log) }

// since returns the transcript from mark m on.
func (h *harness) since(m int) []string { return slices.Clone(h.log[m:]) }

// runRandom is a random workload: every node requests `quota` times (also
// while WANTED or HELD, which exercises the remembered request) and releases
// whenever the driver picks it; messages are delivered in a fully random
// order. It stops when nothing is left to do.
func (h *harness) runRandom(rng *rand.Rand, quota int) {
	n := len(h.nodes) - 1
	left := make([]int, n+1)
	for i := 1; i <= n; i++ {
		left[i] = quota
	}
	type action struct{ kind, arg int }
	var acts []action
	for {
		acts = acts[:0]
		for k := range h.flight {
			acts = append(acts, action{0, k})
		}
		for i := 1; i <= n; i++ {
			if left[i] > 0 {
				acts = append(acts, action{1, i})
			}
		}
		for _, i := range h.inCS {
			acts = append(acts, action{2, i})
		}
		if len(acts) == 0 {
			return
		}
		a := acts[rng.IntN(len(acts))]
		switch a.kind {
		case 0:
			h.deliverAt(a.arg)
		case 1:
			left[a.arg]--
			h.cmd(a.arg, node.CmdRequest)
		case 2:
			h.cmd(a.arg, node.CmdRelease)
		}
	}
}
