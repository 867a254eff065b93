package election

import (
	"context"
	"testing"

	"ringlab/engine"
	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// messagesOf analyses the whole state space of the chang-roberts check
// with the given parameters and returns the fewest and most messages a
// whole run sends, over every continuation of the state after path.
func messagesOf(t *testing.T, nodes int, layout, initiators, path string) (int64, int64) {
	t.Helper()
	return crMessages(t, map[string]any{"nodes": nodes, "layout": layout, "initiators": initiators}, nodes, path)
}

// crMessages analyses the whole state space of the chang-roberts check of
// n nodes with the parameters given and returns the fewest and most
// messages a whole run sends, over every continuation of the state after
// path.
func crMessages(t *testing.T, params map[string]any, n int, path string) (int64, int64) {
	t.Helper()
	alg, _ := engine.Find(Algorithms(), "chang-roberts")
	p := alg.ForCheck().Defaults()
	for name, v := range params {
		if err := p.Give(name, v); err != nil {
			t.Fatal(err)
		}
	}
	sys, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	x, err := explore.NewExplorer(cfg, sys.Names)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x.Analyze(context.Background(), 5_000_000)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := statespace.ParsePath(path, n)
	if err != nil {
		t.Fatal(err)
	}
	v, err := x.At(pp)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, ok := f.MessagesLeft(v.Key)
	if !ok {
		t.Fatalf("%v: no run ends", params)
	}
	return v.Messages + lo, v.Messages + hi
}

// Once every node has initiated (its start command taken before any
// message reaches it), Chang-Roberts sends the same number of messages on
// every schedule, fixed by the arrangement: the textbook's best case, ids
// ascending along the ring (2n-1 ELECTION messages), and its worst,
// descending (n(n+1)/2), each plus n ELECTED announcements. From the
// initial state, where a start may come after a larger id has passed (the
// node then never sends its own), the worst case is still reachable and
// fewer messages are too. With initiators 1 and 3 of 4 (ids 4,3,2,1) the
// figure depends on the schedule: ELECTION(4) makes its 4 hops and ELECTED
// its 4 in every run, and node 3's ELECTION(2) 2 more (to node 4, swallowed
// by node 1) only if node 3 starts before ELECTION(4) reaches it: 8..10.
func TestChangRobertsMessagesOverEverySchedule(t *testing.T) {
	for _, n := range []int{3, 4} {
		all := "c1,c2,c3"
		if n == 4 {
			all += ",c4"
		}
		best, worst := int64(2*n-1+n), int64(n*(n+1)/2+n)
		if lo, hi := messagesOf(t, n, "ascending", "all", all); lo != best || hi != best {
			t.Errorf("n=%d ascending, every node initiated: %d..%d messages, want %d (2n-1 + n)", n, lo, hi, best)
		}
		if lo, hi := messagesOf(t, n, "descending", "all", all); lo != worst || hi != worst {
			t.Errorf("n=%d descending, every node initiated: %d..%d messages, want %d (n(n+1)/2 + n)", n, lo, hi, worst)
		}
		if lo, hi := messagesOf(t, n, "descending", "all", ""); hi != worst || lo >= worst {
			t.Errorf("n=%d descending, from the start: %d..%d messages, want fewer..%d", n, lo, hi, worst)
		}
	}
	lo, hi := messagesOf(t, 4, "descending", "1,3", "")
	if lo != 8 || hi != 10 {
		t.Errorf("4 nodes descending, initiators 1 and 3: %d..%d messages, want 8..10", lo, hi)
	}
}
