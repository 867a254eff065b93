package mutextest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ringlab/engine/node"
)

// walker is one random FIFO schedule in progress, as CheckClimb and
// CheckForget drive it: nodes 1..n, the messages in flight in the order
// sent, and the nodes in the critical section.
type walker struct {
	seed   int
	nodes  []node.Node // 1-based
	flight []letter
	inCS   []int
	out    node.Output // the last step's output
}

// letter is a message in flight. alt starts as the message sent; a check
// may replace it by a copy of its own (CheckForget keeps the forgotten
// form there).
type letter struct {
	from, to int
	msg, alt node.Msg
}

// walk drives seeds random FIFO schedules of n nodes from f, each asking
// quota times (also while WANTED or HELD), seed s drawing from
// rand.NewPCG(s, stream). Each step is a delivery (the oldest message of
// a link), a request or a release, chosen uniformly among those possible;
// walk calls take with the node and its input, and for a delivery the
// letter taken off the link. take makes the step itself with w.step, so
// that it can look at the node before and after.
func walk(t testing.TB, f node.Factory, n, quota, seeds int, stream uint64, take func(w *walker, i int, in node.Input, l *letter)) {
	t.Helper()
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), stream))
		w := &walker{seed: seed, nodes: make([]node.Node, n+1)}
		for i := 1; i <= n; i++ {
			nd, err := f(i)
			if err != nil {
				t.Fatal(err)
			}
			w.nodes[i] = nd
		}
		left := Quota(n, quota)
		for {
			var want []int
			for i := 1; i <= n; i++ {
				if left[i] > 0 {
					want = append(want, i)
				}
			}
			total := len(w.flight) + len(want) + len(w.inCS)
			if total == 0 {
				break
			}
			switch k := rng.IntN(total); {
			case k < len(w.flight):
				h := slices.IndexFunc(w.flight, func(l letter) bool { return l.from == w.flight[k].from && l.to == w.flight[k].to })
				l := w.flight[h]
				w.flight = slices.Delete(w.flight, h, h+1)
				take(w, l.to, node.Input{Kind: node.InMsg, From: l.from, Msg: l.msg}, &l)
			case k < len(w.flight)+len(want):
				i := want[k-len(w.flight)]
				left[i]--
				take(w, i, node.Input{Kind: node.InCmd, Cmd: node.CmdRequest}, nil)
			default:
				take(w, w.inCS[k-len(w.flight)-len(want)], node.Input{Kind: node.InCmd, Cmd: node.CmdRelease}, nil)
			}
		}
	}
}

// step gives node i the input in: its output is in w.out, its entries and
// exits update w.inCS, and what it sends joins the flight.
func (w *walker) step(i int, in node.Input) {
	w.out.Reset()
	w.nodes[i].Step(in, &w.out)
	for _, e := range w.out.Events {
		switch e.Kind {
		case node.EvEnterCS:
			w.inCS = append(w.inCS, i)
		case node.EvExitCS:
			w.inCS = slices.DeleteFunc(w.inCS, func(x int) bool { return x == i })
		}
	}
	for _, s := range w.out.Sends {
		w.flight = append(w.flight, letter{i, s.To, s.Msg, s.Msg})
	}
}
