// Run:     go test -run '^$' -bench Sim -count 10 ./engine/sim | tee new.txt
// Compare: benchstat -col /impl new.txt     (the simulator against a bare loop)
//          benchstat old.txt new.txt        (before and after a change)
//
// BenchmarkSim delivers the messages of one token passed around a ring of
// nodetest.Pass node machines; impl=baseline is a minimal single-threaded loop
// passing an int around the same ring through a slice-based FIFO queue.

package sim

import (
	"testing"

	"ringlab/engine/internal/nodetest"
)

func BenchmarkSim(b *testing.B) {
	nodetest.BenchPass(b, "sim", baselineRing, func(b *testing.B, n, hops int) (int64, error) {
		res, err := run(passConfig(n, hops))
		return res.Messages, err
	}, func(b *testing.B, hops int) {
		msgs := float64(b.N) * float64(hops)
		b.ReportMetric(msgs/b.Elapsed().Seconds(), "msgs/s")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/msgs, "ns/msg")
	})
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
