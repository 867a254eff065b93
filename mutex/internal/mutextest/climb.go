package mutextest

import (
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

// climber is a node with a Climb bound.
type climber interface {
	node.Node
	node.Climber
}

// declared is what x declares (node.Valuer); it fails the test if x
// declares nothing.
func declared(t testing.TB, x any) reduce.Facts {
	f, ok := reduce.Read(x)
	if !ok {
		t.Fatalf("%T declares no values (node.Valuer)", x)
	}
	return f
}

// clock is the clock node nd declares (its least, if several).
func clock(t testing.TB, nd node.Node) int {
	c, has := declared(t, nd).Floor()
	if !has {
		t.Fatalf("%T declares no clock", nd)
	}
	return c
}

// Rises is what CheckClimb saw: the largest rise of a command step and of
// a step that delivered a message, and how many steps it checked.
type Rises struct {
	Cmd, Msg, Steps int
}

// CheckClimb tests the contract of a node's Climb (node.Climber) on the
// clock and values it declares (node.Valuer) over random FIFO schedules of
// n nodes from f, each asking quota times (also while WANTED or HELD): at
// every step the clock never falls; it ends at most max(clock, t) + rise,
// t the delivered message's Clock; every value the step sends is at most
// the clock after it; and Climb(in) before the step is at least rise +
// Climb(in) after it (in-1 after a delivery), for in = 0..3 (1..3 for a
// delivery), Climb never falling as in grows. Nodes whose Climb has no
// bound are skipped.
func CheckClimb(t testing.TB, f node.Factory, n, quota, seeds int) Rises {
	t.Helper()
	var r Rises
	walk(t, f, n, quota, seeds, 11, func(w *walker, i int, in node.Input, _ *letter) {
		nd, ok := w.nodes[i].(climber)
		if !ok {
			t.Fatalf("%T has no Climb (node.Climber)", w.nodes[i])
		}
		before := clock(t, nd)
		var climbs [4]int
		_, bounded := nd.Climb(0)
		for k := range climbs {
			climbs[k], _ = nd.Climb(k)
			if k > 0 && climbs[k] < climbs[k-1] {
				t.Fatalf("seed %d: node %d's Climb falls as in grows: %v", w.seed, i, climbs[:k+1])
			}
		}
		from := before
		if in.Kind == node.InMsg {
			if tm, has := declared(t, in.Msg).Brings(); has {
				from = max(from, tm)
			}
		}
		w.step(i, in)
		after := clock(t, nd)
		if after < before {
			t.Fatalf("seed %d: node %d's clock fell from %d to %d", w.seed, i, before, after)
		}
		for _, s := range w.out.Sends {
			for _, v := range declared(t, s.Msg).Values(nil) {
				if v > after {
					t.Fatalf("seed %d: node %d sent %v, a value above its clock %d", w.seed, i, s.Msg, after)
				}
			}
		}
		if !bounded {
			return
		}
		rise := after - from
		r.Steps++
		lo := 0
		if in.Kind == node.InMsg {
			lo = 1
			r.Msg = max(r.Msg, rise)
		} else {
			r.Cmd = max(r.Cmd, rise)
		}
		for k := lo; k < len(climbs); k++ {
			next, _ := nd.Climb(k - lo)
			if climbs[k] < rise+next {
				t.Fatalf("seed %d: node %d rose %d on %+v, Climb(%d) %d before it, Climb(%d) %d after: the bound does not fall by the rise",
					w.seed, i, rise, in, k, climbs[k], k-lo, next)
			}
		}
	})
	return r
}
