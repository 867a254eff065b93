// Run:     go test -run '^$' -bench Pool -count 10 ./exercises/pool > new.txt
// Compare: benchstat old.txt new.txt (go install golang.org/x/perf/cmd/benchstat@latest)
//
// Each op submits a fixed batch of small CPU-bound tasks to a pool and waits
// for all their futures; ns/task is the domain figure. workers=1 is the
// baseline: on a machine with C cores, expect little gain past workers=C.
package pool

import (
	"context"
	"fmt"
	"testing"
)

// benchBatch tasks per op, each summing benchTaskSize numbers (a few microseconds).
const (
	benchBatch    = 256
	benchTaskSize = 10_000
)

func BenchmarkPool(b *testing.B) {
	ctx := context.Background()
	for _, workers := range []int{1, 2, 4, 16} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			p := New(workers, benchBatch)
			defer p.Close()
			futures := make([]*Future[int64], benchBatch)
			var sink int64
			for b.Loop() {
				for i := range futures {
					f, err := Submit(ctx, p, func() int64 { return SumRange(i*benchTaskSize, (i+1)*benchTaskSize) })
					if err != nil {
						b.Fatal(err)
					}
					futures[i] = f
				}
				for _, f := range futures {
					v, _ := f.Get(ctx)
					sink += v
				}
			}
			if sink == 0 {
				b.Fatal("no work done")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBatch), "ns/task")
		})
	}
}
