package mutex

// Run: go test -run '^$' -bench BenchmarkLiveness -benchtime 3x ./mutex/

import (
	"context"
	"fmt"
	"testing"

	"ringlab/engine/statespace"
)

// BenchmarkLiveness is the cost of --liveness: the central coordinator
// asking without end (--requests 0) searched for safety only and with the
// liveness pass, both without the partial-order reduction (which
// --liveness turns off) on one worker. live-s/op is the pass after the
// search (the components, fairness and bypass). With -short (CI's
// benchmarks step) only N = 6, on the same code as 7.
func BenchmarkLiveness(b *testing.B) {
	sizes := []int{6, 7}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		for _, live := range []bool{false, true} {
			b.Run(fmt.Sprintf("algo=central/nodes=%d/liveness=%v", n, live), func(b *testing.B) {
				cfg := checkConfig(b, "central", "--nodes", fmt.Sprint(n), "--requests", "0")
				cfg.POR, cfg.Workers, cfg.Liveness = false, 1, live
				b.ReportAllocs()
				var res statespace.Result
				var pass float64
				for b.Loop() {
					var err error
					if res, err = statespace.Search(context.Background(), cfg); err != nil || !res.Exhausted {
						b.Fatal(err, res.Stop)
					}
					pass += res.Live.Elapsed.Seconds()
				}
				b.ReportMetric(pass/float64(b.N), "live-s/op")
				b.ReportMetric(float64(res.Distinct), "states/op")
			})
		}
	}
}
