package mutextest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"ringlab/engine/node"
)

// CheckForget tests a node.Forgetter's contract over random FIFO
// schedules of n nodes from f, each asking quota times (also while WANTED
// or HELD): every message in flight is kept twice, as sent and as
// forgotten (Forget applied after every step, with its receiver as it then
// stands), and at its delivery two copies of the receiver take the one and
// the other; their states (AppendKey) and outputs (events, notes, sends)
// must be the same. It returns how many deliveries took a message with
// something forgotten, so that a test can require the check to bite.
func CheckForget(t testing.TB, f node.Factory, n, quota, seeds int) (forgotten int) {
	t.Helper()
	type env struct {
		from, to  int
		sent, fgt node.Msg
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		nodes := make([]node.Snapshot, n+1)
		for i := 1; i <= n; i++ {
			nd, err := f(i)
			if err != nil {
				t.Fatal(err)
			}
			nodes[i] = nd.(node.Snapshot)
		}
		left := Quota(n, quota)
		var flight []env
		var inCS []int
		var out node.Output
		step := func(i int, in node.Input) {
			out.Reset()
			nodes[i].Step(in, &out)
			for _, e := range out.Events {
				switch e.Kind {
				case node.EvEnterCS:
					inCS = append(inCS, i)
				case node.EvExitCS:
					inCS = slices.DeleteFunc(inCS, func(x int) bool { return x == i })
				}
			}
			for _, s := range out.Sends {
				flight = append(flight, env{i, s.To, s.Msg, s.Msg})
			}
			for k, e := range flight {
				if g, ok := nodes[e.to].(node.Forgetter); ok {
					if m, changed := g.Forget(e.from, e.fgt); changed {
						flight[k].fgt = m
					}
				}
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
				if !reflect.DeepEqual(e.sent, e.fgt) {
					forgotten++
					twin := nodes[e.to].Clone().(node.Snapshot)
					var o2 node.Output
					twin.Step(node.Input{Kind: node.InMsg, From: e.from, Msg: e.fgt}, &o2)
					step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.sent})
					if a, b := string(nodes[e.to].AppendKey(nil)), string(twin.AppendKey(nil)); a != b {
						t.Fatalf("seed %d: node %d took %v and the forgotten %v to different states", seed, e.to, e.sent, e.fgt)
					}
					if a, b := outputs(&out), outputs(&o2); a != b {
						t.Fatalf("seed %d: node %d took %v and the forgotten %v with different outputs:\n%s\n%s", seed, e.to, e.sent, e.fgt, a, b)
					}
				} else {
					step(e.to, node.Input{Kind: node.InMsg, From: e.from, Msg: e.sent})
				}
			case k < len(flight)+len(want):
				i := want[k-len(flight)]
				left[i]--
				step(i, node.Input{Kind: node.InCmd, Cmd: node.CmdRequest})
			default:
				step(inCS[k-len(flight)-len(want)], node.Input{Kind: node.InCmd, Cmd: node.CmdRelease})
			}
		}
	}
	return forgotten
}

// outputs prints what a step put out.
func outputs(o *node.Output) string {
	return fmt.Sprintf("%+v %+v %+v %v", o.Events, o.Sends, o.Timers, o.Done)
}
