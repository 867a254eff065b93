package nodetest

import (
	"fmt"
	"testing"
)

// BenchPass is the Pass benchmark every runtime runs, so that their figures
// measure one workload: for rings of 30, 503 and 100,000 nodes, each op is
// a whole run of one token making max(10n, 100,000) hops. impl=baseline
// runs baseline, a hand-written ring that returns the last hop it saw;
// impl=<runtime> runs run, which returns the messages the runtime
// delivered. metrics reports a sub-benchmark's figures in its runtime's
// units, from b.Elapsed, b.N and the hops of one op.
func BenchPass(b *testing.B, runtime string, baseline func(n, hops int) int,
	run func(b *testing.B, n, hops int) (int64, error), metrics func(b *testing.B, hops int)) {
	for _, impl := range []string{"baseline", runtime} {
		for _, n := range []int{30, 503, 100_000} {
			hops := max(10*n, 100_000)
			b.Run(fmt.Sprintf("impl=%s/nodes=%d", impl, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if impl == "baseline" {
						if got := baseline(n, hops); got != hops {
							b.Fatalf("baseline: %d hops, want %d", got, hops)
						}
						continue
					}
					msgs, err := run(b, n, hops)
					if err != nil || msgs != int64(hops) {
						b.Fatalf("%s: %d messages, want %d: %v", runtime, msgs, hops, err)
					}
				}
				metrics(b, hops)
			})
		}
	}
}
