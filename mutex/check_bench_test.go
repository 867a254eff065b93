package mutex

// Run: go test -run '^$' -bench BenchmarkCheck -benchtime 3x ./mutex/
// Compare two builds: go test ... -count 6 > old.txt; benchstat old.txt new.txt

import (
	"context"
	"testing"

	"ringlab/internal/statespace"
	"ringlab/mutex/lamport"
)

// BenchmarkCheck exhausts Lamport's and Ricart-Agrawala's spaces at N = 3,
// one request each, and Lamport's with the clock rule and the clock bound
// of the TLA+ specification that TLC checks (clock=requests, max-clock 6,
// requests without end), with the partial-order reduction off
// (impl=baseline, every interleaving) and on (impl=por: ample sets and
// sleep sets).
func BenchmarkCheck(b *testing.B) {
	cases := []struct {
		name               string
		p                  params
		requests, maxClock int
	}{
		{"algo=lamport/nodes=3", params{algo: algoLamport, nodes: 3}, 1, 0},
		{"algo=ricart-agrawala/nodes=3", params{algo: algoRicart, nodes: 3}, 1, 0},
		{"algo=lamport-tla/nodes=3", params{algo: algoLamport, nodes: 3, clock: lamport.ClockRequests}, 0, 6},
	}
	for _, c := range cases {
		for _, por := range []bool{false, true} {
			impl := "baseline"
			if por {
				impl = "por"
			}
			b.Run(c.name+"/impl="+impl, func(b *testing.B) {
				pl, err := c.p.build()
				if err != nil {
					b.Fatal(err)
				}
				cfg := searchConfig(pl, c.requests, c.maxClock)
				cfg.POR = por
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
			})
		}
	}
}
