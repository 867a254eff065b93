package lamport

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ringlab/internal/node"
)

// harness is a tiny deterministic network for the pure nodes: messages in
// flight that the test (or a seeded random source) delivers one at a time,
// message counts by type, a transcript, and a mutual exclusion watch.
type harness struct {
	nodes   []*Node // 1-based
	flight  []envelope
	counts  map[string]int
	log     []string // "N1 enter", "N2 -> N1 ACK", ...
	inCS    []int
	overlap bool     // two nodes were in the CS at once
	entries [][2]int // (T, id) of each entry, in order
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
	h := &harness{nodes: make([]*Node, cfg.N+1), counts: map[string]int{}}
	for i := 1; i <= cfg.N; i++ {
		nd, err := f(i)
		if err != nil {
			t.Fatal(err)
		}
		h.nodes[i] = nd.(*Node)
	}
	return h
}

func (h *harness) step(i int, in node.Input) {
	h.out.Reset()
	h.nodes[i].Step(in, &h.out)
	name := fmt.Sprintf("N%d", h.nodes[i].id)
	for _, e := range h.out.Events {
		switch e.Kind {
		case node.EvEnterCS:
			h.overlap = h.overlap || len(h.inCS) > 0
			h.inCS = append(h.inCS, i)
			st := h.nodes[i].Status()
			h.entries = append(h.entries, [2]int{st.RequestT, st.ID})
			h.log = append(h.log, name+" enter")
		case node.EvExitCS:
			h.inCS = slices.DeleteFunc(h.inCS, func(x int) bool { return x == i })
			h.log = append(h.log, name+" exit")
		}
	}
	for _, s := range h.out.Sends {
		h.flight = append(h.flight, envelope{i, s.To, s.Msg})
		h.counts[s.Msg.Type()]++
		h.log = append(h.log, fmt.Sprintf("%s -> N%d %s", name, h.nodes[s.To].id, s.Msg.Type()))
	}
}

func (h *harness) cmd(i int, c node.Cmd) { h.step(i, node.Input{Kind: node.InCmd, Cmd: c}) }

// deliverAt delivers the k-th message in flight, whatever is ahead of it.
func (h *harness) deliverAt(k int) {
	e := h.flight[k]
	h.flight = slices.Delete(h.flight, k, k+1)
	h.step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg})
}

// deliver delivers the oldest message in flight from `from` to `to` with
// type typ ("" = any): naming a type lets a test overtake on purpose.
func (h *harness) deliver(t testing.TB, from, to int, typ string) {
	t.Helper()
	for k, e := range h.flight {
		if e.from == from && e.to == to && (typ == "" || e.msg.Type() == typ) {
			h.deliverAt(k)
			return
		}
	}
	t.Fatalf("no %s message in flight from node %d to node %d", typ, from, to)
}

// headOfLink returns the oldest message on the link of message k.
func (h *harness) headOfLink(k int) int {
	return slices.IndexFunc(h.flight, func(e envelope) bool { return e.from == h.flight[k].from && e.to == h.flight[k].to })
}

// runRandom is a random workload: every node requests `quota` times (also
// while WANTED or HELD, which exercises the remembered request) and releases
// whenever the driver picks it. With fifo, a random link delivers its oldest
// message; without, any message in flight may go next.
func (h *harness) runRandom(rng *rand.Rand, quota int, fifo bool) {
	n := len(h.nodes) - 1
	left := make([]int, n+1)
	for i := 1; i <= n; i++ {
		left[i] = quota
	}
	for {
		var want, inCS []int
		for i := 1; i <= n; i++ {
			if left[i] > 0 {
				want = append(want, i)
			}
		}
		inCS = append(inCS, h.inCS...)
		total := len(h.flight) + len(want) + len(inCS)
		if total == 0 {
			return
		}
		switch k := rng.IntN(total); {
		case k < len(h.flight) && fifo:
			h.deliverAt(h.headOfLink(k))
		case k < len(h.flight):
			h.deliverAt(k)
		case k < len(h.flight)+len(want):
			i := want[k-len(h.flight)]
			left[i]--
			h.cmd(i, node.CmdRequest)
		default:
			h.cmd(inCS[k-len(h.flight)-len(want)], node.CmdRelease)
		}
	}
}
