package mutextest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ringlab/engine/node"
)

// Rises is what CheckClimb saw: the largest rise of a command step and of
// a step that delivered a message, and how many steps it checked.
type Rises struct {
	Cmd, Msg, Steps int
}

// CheckClimb tests a node.Climber's contract over random FIFO schedules of
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
	type env struct {
		from, to int
		msg      node.Msg
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		nodes := make([]node.Climber, n+1)
		for i := 1; i <= n; i++ {
			nd, err := f(i)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := nd.(node.Climber)
			if !ok {
				t.Fatalf("%T is not a node.Climber", nd)
			}
			nodes[i] = c
		}
		left := Quota(n, quota)
		var flight []env
		var inCS []int
		var out node.Output
		step := func(i int, in node.Input) {
			nd := nodes[i]
			before, _ := nd.StampFloor()
			var climbs [4]int
			_, bounded := nd.Climb(0)
			for k := range climbs {
				climbs[k], _ = nd.Climb(k)
				if k > 0 && climbs[k] < climbs[k-1] {
					t.Fatalf("seed %d: node %d's Climb falls as in grows: %v", seed, i, climbs[:k+1])
				}
			}
			from := before
			if in.Kind == node.InMsg {
				if tm, has := in.Msg.(node.MsgClimber).Clock(); has {
					from = max(from, tm)
				}
			}
			out.Reset()
			nd.Step(in, &out)
			after, _ := nd.StampFloor()
			if after < before {
				t.Fatalf("seed %d: node %d's clock fell from %d to %d", seed, i, before, after)
			}
			for _, s := range out.Sends {
				for _, v := range s.Msg.(node.MsgClimber).AppendValues(nil) {
					if v > after {
						t.Fatalf("seed %d: node %d sent %v, a value above its clock %d", seed, i, s.Msg, after)
					}
				}
			}
			rise := after - from
			if bounded {
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
							seed, i, rise, in, k, climbs[k], k-lo, next)
					}
				}
			}
			for _, e := range out.Events {
				switch e.Kind {
				case node.EvEnterCS:
					inCS = append(inCS, i)
				case node.EvExitCS:
					inCS = slices.DeleteFunc(inCS, func(x int) bool { return x == i })
				}
			}
			for _, s := range out.Sends {
				flight = append(flight, env{i, s.To, s.Msg})
			}
		}
		for {
			var want []int
			for i := 1; i <= n; i++ {
				if left[i] > 0 {
					want = append(want, i)
				}
			}
			total := len(flight) + len(want) + len(inCS)
			if total == 0 {
				break
			}
			switch k := rng.IntN(total); {
			case k < len(flight):
				h := slices.IndexFunc(flight, func(e env) bool { return e.from == flight[k].from && e.to == flight[k].to })
				e := flight[h]
				flight = slices.Delete(flight, h, h+1)
				step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg})
			case k < len(flight)+len(want):
				i := want[k-len(flight)]
				left[i]--
				step(i, node.Input{Kind: node.InCmd, Cmd: node.CmdRequest})
			default:
				step(inCS[k-len(flight)-len(want)], node.Input{Kind: node.InCmd, Cmd: node.CmdRelease})
			}
		}
	}
	return r
}
