// Run:     go test -run '^$' -bench Sim -count 10 ./internal/sim | tee new.txt
// Compare: benchstat -col /impl new.txt     (the simulator against a bare loop)
//          benchstat old.txt new.txt        (before and after a change)
//
// BenchmarkSim delivers the messages of one token passed around a ring of
// nodetest.Pass node machines; impl=baseline is a minimal single-threaded loop
// passing an int around the same ring through a slice-based FIFO queue.

package sim_test

import (
	"fmt"
	"testing"

	"ringlab/internal/sim"
)

func BenchmarkSim(b *testing.B) {
	for _, impl := range []string{"baseline", "sim"} {
		for _, n := range []int{30, 503, 100_000} {
			hops := max(10*n, 100_000)
			b.Run(fmt.Sprintf("impl=%s/nodes=%d", impl, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if impl == "baseline" {
						if got := baselineRing(n, hops); got != hops {
							b.Fatalf("%d hops, want %d", got, hops)
						}
						continue
					}
					res, err := sim.Run(passConfig(n, hops))
					if err != nil || res.Messages != int64(hops) {
						b.Fatalf("%v: %+v", err, res)
					}
				}
				msgs := float64(b.N) * float64(hops)
				b.ReportMetric(msgs/b.Elapsed().Seconds(), "msgs/s")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/msgs, "ns/msg")
			})
		}
	}
}

// baselineRing delivers an int token `hops` times around a ring of n
// through a FIFO queue of (to, token) pairs, and returns the last token.
func baselineRing(n, hops int) int {
	type msg struct{ to, tok int }
	state := make([]int, n) // what each node last saw
	q := []msg{{to: 1 % n, tok: 1}}
	last := 0
	for h := 0; h < len(q); h++ {
		m := q[h]
		if h == len(q)-1 { // drained: reuse the storage
			q, h = q[:0], -1
		}
		state[m.to] = m.tok
		last = m.tok
		if m.tok < hops {
			q = append(q, msg{to: (m.to + 1) % n, tok: m.tok + 1})
		}
	}
	return last
}
