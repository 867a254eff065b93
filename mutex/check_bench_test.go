package mutex

// Run: go test -run '^$' -bench BenchmarkCheck -benchtime 3x ./mutex/
// Compare two builds: go test ... -count 6 > old.txt; benchstat old.txt new.txt

import (
	"context"
	"fmt"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
)

// BenchmarkCheck exhausts Lamport's and Ricart-Agrawala's spaces at N = 3,
// one request each (and Ricart-Agrawala's with two, ricart-agrawala-2), and Lamport's with the clock rule and the clock bound
// of the TLA+ specification that TLC checks (clock=requests, max-clock 6,
// requests without end), for mutual exclusion alone as TLC does
// (lamport-tla) and with the grant order too (lamport-tla-order, the
// check's default), with the partial-order reduction off
// (impl=baseline, every interleaving) and on (impl=por: ample sets and
// sleep sets), on one worker and on two (workers=N: Config.Workers; the
// counts reported are the same for both). lamport-tla and
// ricart-agrawala-2 run again with the reduction on, on one worker, with
// the nodes' own Clone and AppendKey (keys=hand) and with the copy and key
// the engine derives from their values (keys=derived, Config.Derived),
// each with the memory per state (B/state: Result.MemBytes over the
// distinct states); the derived row fails unless it searched the space
// the hand row did (the same states, transitions, terminal states, depth
// and verdict): at ricart-agrawala-2 the only check of the two at N = 3
// with two requests, which TestDerivedEqualsHandWritten leaves to CI's
// benchmarks step to spare itself minutes under -race. With -short (CI's
// benchmarks step, which runs each once so that none rots) the three big
// cases run only their keys rows: the small two run every impl and
// workers row, on the same code.
func BenchmarkCheck(b *testing.B) {
	tla := []string{"lamport", "--nodes", "3", "--clock", "requests", "--requests", "0", "--max-clock", "6"}
	cases := []struct {
		name string
		args []string // of `ringlab mutex check`
		only check.ID // --property ("": every property)
		big  bool     // seconds a search: with -short, only its keys rows
	}{
		{"algo=lamport/nodes=3", []string{"lamport", "--nodes", "3"}, "", false},
		{"algo=ricart-agrawala/nodes=3", []string{"ricart-agrawala", "--nodes", "3"}, "", false},
		{"algo=ricart-agrawala-2/nodes=3", []string{"ricart-agrawala", "--nodes", "3", "--requests", "2"}, "", true},
		{"algo=lamport-tla/nodes=3", tla, check.IDMutualExclusion, true},
		{"algo=lamport-tla-order/nodes=3", tla, "", true},
	}
	for _, c := range cases {
		if c.name == "algo=lamport-tla/nodes=3" || c.name == "algo=ricart-agrawala-2/nodes=3" {
			var hand *statespace.Result // the keys=hand row's, when it ran
			for _, derived := range []bool{false, true} {
				keys := map[bool]string{false: "hand", true: "derived"}[derived]
				b.Run(c.name+"/impl=por/workers=1/keys="+keys, func(b *testing.B) {
					cfg := checkConfig(b, c.args...)
					cfg.POR, cfg.Workers, cfg.Only, cfg.Derived = true, 1, c.only, derived
					res := benchSearch(b, cfg)
					b.ReportMetric(float64(res.MemBytes)/float64(res.Distinct), "B/state")
					if !derived {
						hand = &res
					} else if hand != nil && sameSpace(*hand) != sameSpace(res) {
						b.Errorf("derived keys searched %+v, the node's own %+v", sameSpace(res), sameSpace(*hand))
					}
				})
			}
		}
		if testing.Short() && c.big {
			continue
		}
		for _, por := range []bool{false, true} {
			impl := "baseline"
			if por {
				impl = "por"
			}
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/impl=%s/workers=%d", c.name, impl, workers), func(b *testing.B) {
					cfg := checkConfig(b, c.args...)
					cfg.POR, cfg.Workers, cfg.Only = por, workers, c.only
					benchSearch(b, cfg)
				})
			}
		}
	}
}

// space is what two searches of one space must agree on, whatever keys
// and copies they use.
type space struct {
	Explored, Distinct, Transitions, Terminal int64
	Depth                                     int
	Exhausted, Violated                       bool
}

// sameSpace is res's space.
func sameSpace(res statespace.Result) space {
	return space{res.Explored, res.Distinct, res.Transitions, res.Terminal, res.Depth, res.Exhausted, res.Violation != nil}
}

// benchSearch runs cfg's search b.N times, reports the states a second,
// the transitions and the states, and returns the last result.
func benchSearch(b *testing.B, cfg statespace.Config) statespace.Result {
	b.ReportAllocs()
	var res statespace.Result
	for b.Loop() {
		var err error
		if res, err = statespace.Search(context.Background(), cfg); err != nil || !res.Exhausted {
			b.Fatal(err, res.Stop)
		}
	}
	b.ReportMetric(float64(res.Distinct)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(res.Transitions), "transitions/op")
	b.ReportMetric(float64(res.Distinct), "states/op")
	return res
}
