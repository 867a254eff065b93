package mutex

// Run: go test -run '^$' -bench BenchmarkCheck -benchtime 3x ./mutex/
// Compare two builds: go test ... -count 6 > old.txt; benchstat old.txt new.txt

import (
	"context"
	"fmt"
	"testing"

	"ringlab/internal/statespace"
)

func checkConfig(b *testing.B, p params, por bool) statespace.Config {
	pl, err := p.build()
	if err != nil {
		b.Fatal(err)
	}
	w := newWorkload(pl, p.requests, 0, 0)
	return statespace.Config{
		Nodes: pl.nodes, Factory: pl.factory, Script: w.actions(pl), Checks: pl.checkers, POR: por,
		World: func() statespace.World { return newMutexWorld(pl.nodes, pl.requesters, p.requests, pl.names) },
	}
}

// BenchmarkCheck exhausts Lamport's and Ricart-Agrawala's spaces at N = 3,
// one request each, with the partial-order reduction off (impl=baseline,
// every interleaving) and on (impl=por: ample sets and sleep sets).
func BenchmarkCheck(b *testing.B) {
	for _, algo := range []string{algoLamport, algoRicart} {
		for _, por := range []bool{false, true} {
			impl := "baseline"
			if por {
				impl = "por"
			}
			b.Run(fmt.Sprintf("algo=%s/nodes=3/impl=%s", algo, impl), func(b *testing.B) {
				cfg := checkConfig(b, params{algo: algo, nodes: 3, requests: 1}, por)
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
