// Run: go test -run '^$' -bench Counter -count 10 ./exercises/counter | tee new.txt
// Compare two runs (e.g. before/after a change, or -cpu 1,2,4): benchstat old.txt new.txt
package counter

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
)

// BenchmarkCounter increments one shared counter from GOMAXPROCS goroutines
// (b.RunParallel). ns/op is the cost of one increment under contention;
// sharded spreads the work over one shard per goroutine, and sharded-padded
// also keeps each shard on its own cache line.
func BenchmarkCounter(b *testing.B) {
	shards := runtime.GOMAXPROCS(0)
	for _, impl := range []string{ImplMutex, ImplAtomic, ImplChannel} {
		b.Run("impl="+impl, func(b *testing.B) {
			ctr, release := New(context.Background(), impl)
			defer release()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					ctr.Inc(nil)
				}
			})
		})
	}
	for _, bc := range []struct {
		name string
		inc  func(shard int)
	}{
		{"sharded", NewSharded(shards).Inc},
		{"sharded-padded", NewPaddedSharded(shards).Inc},
	} {
		b.Run("impl="+bc.name, func(b *testing.B) {
			var next atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				shard := int(next.Add(1)) // one shard per parallel goroutine
				for pb.Next() {
					bc.inc(shard)
				}
			})
		})
	}
}
