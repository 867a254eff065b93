package maekawa

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"ringlab/internal/node"
)

// harness is a tiny deterministic network for the pure nodes: messages in
// flight delivered one at a time (oldest first, or a random link's oldest:
// per-link FIFO), message counts by type, a transcript, and a mutual
// exclusion watch.
type harness struct {
	nodes   []*Node // 1-based
	flight  []envelope
	counts  map[string]int
	log     []string // "N1 enter", "N2 -> N1 LOCKED", ...
	inCS    []int
	overlap bool // two nodes were in the CS at once
	entries int
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
	for _, e := range h.out.Events {
		switch e.Kind {
		case node.EvEnterCS:
			h.overlap = h.overlap || len(h.inCS) > 0
			h.inCS = append(h.inCS, i)
			h.entries++
			h.log = append(h.log, fmt.Sprintf("N%d enter", i))
		case node.EvExitCS:
			h.inCS = slices.DeleteFunc(h.inCS, func(x int) bool { return x == i })
			h.log = append(h.log, fmt.Sprintf("N%d exit", i))
		}
	}
	for _, s := range h.out.Sends {
		h.flight = append(h.flight, envelope{i, s.To, s.Msg})
		h.counts[s.Msg.Type()]++
		h.log = append(h.log, fmt.Sprintf("N%d -> N%d %s", i, s.To, s.Msg.Type()))
	}
}

func (h *harness) cmd(i int, c node.Cmd) { h.step(i, node.Input{Kind: node.InCmd, Cmd: c}) }

// deliverLinkHead delivers the oldest message on the link of message k.
func (h *harness) deliverLinkHead(k int) {
	e := h.flight[k]
	k = slices.IndexFunc(h.flight, func(f envelope) bool { return f.from == e.from && f.to == e.to })
	e = h.flight[k]
	h.flight = slices.Delete(h.flight, k, k+1)
	h.step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg})
}

func (h *harness) drain() {
	for len(h.flight) > 0 {
		h.deliverLinkHead(0)
	}
}

func (h *harness) total() int {
	t := 0
	for _, c := range h.counts {
		t += c
	}
	return t
}

// runRandom: every node requests `quota` times, a `burst` of them at once at
// the start; holders release whenever the driver picks them; a random link
// delivers its oldest message. It returns false on a deadlock: nothing in
// flight, nobody in the CS, somebody still WANTED.
func (h *harness) runRandom(rng *rand.Rand, quota, burst int) bool {
	n := len(h.nodes) - 1
	left := make([]int, n+1)
	for i := 1; i <= n; i++ {
		left[i] = quota
	}
	for _, i := range rng.Perm(n)[:min(burst, n)] {
		left[i+1]--
		h.cmd(i+1, node.CmdRequest)
	}
	for {
		var want []int
		for i := 1; i <= n; i++ {
			if left[i] > 0 {
				want = append(want, i)
			}
		}
		inCS := slices.Clone(h.inCS)
		total := len(h.flight) + len(want) + len(inCS)
		if total == 0 {
			break
		}
		switch k := rng.IntN(total); {
		case k < len(h.flight):
			h.deliverLinkHead(k)
		case k < len(h.flight)+len(want):
			i := want[k-len(h.flight)]
			left[i]--
			h.cmd(i, node.CmdRequest)
		default:
			h.cmd(inCS[k-len(h.flight)-len(want)], node.CmdRelease)
		}
	}
	for i := 1; i <= n; i++ {
		if h.nodes[i].state != StateReleased {
			return false
		}
	}
	return true
}

// deliver delivers the oldest message in flight from `from` to `to`.
func (h *harness) deliver(t testing.TB, from, to int) {
	t.Helper()
	k := slices.IndexFunc(h.flight, func(e envelope) bool { return e.from == from && e.to == to })
	if k < 0 {
		t.Fatalf("no message in flight from N%d to N%d", from, to)
	}
	h.deliverLinkHead(k)
}
