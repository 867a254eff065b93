// Run:     go test -run '^$' -bench Live -count 10 ./engine/live | tee new.txt
// Compare: benchstat -col /impl new.txt     (live against the bare channel ring)
//          benchstat old.txt new.txt        (before and after a change)
//
// BenchmarkLive passes one token around a ring of nodetest.Pass node machines
// on the live runtime: impl=live on the turn scheduler (Run), impl=plain on
// the plain one (RunPlain), the same workload; impl=baseline is a bare hand-written ring of
// goroutines and 1-buffered int channels doing the same hops: a plain
// receive and a plain send per hop, no select, no context, and the ring
// stopped by closing its channels once the last hop is in. Each op is a
// whole run, goroutine start-up and join included, in both.

package live

import (
	"fmt"
	"sync"
	"testing"

	"ringlab/engine/internal/nodetest"
)

func BenchmarkLive(b *testing.B) {
	nodetest.BenchPass(b, "live", baselineRing, func(b *testing.B, n, hops int) (int64, error) {
		res, err := runTurns(b.Context(), passConfig(n, hops))
		return res.Messages, err
	}, func(b *testing.B, hops int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(hops), "ns/hop")
	})
	for _, n := range []int{30, 503, 100_000} { // BenchPass's rings and hops
		hops := max(10*n, 100_000)
		b.Run(fmt.Sprintf("impl=plain/nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := runPlain(b.Context(), passConfig(n, hops))
				if err != nil || res.Messages != int64(hops) {
					b.Fatalf("plain: %d messages, want %d: %v", res.Messages, hops, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(hops), "ns/hop")
		})
	}
}

// baselineRing passes an int token `hops` hops around a ring of n
// goroutines joined by 1-buffered channels, and returns when every
// goroutine has. The goroutine that receives the last hop says so on done;
// no token is then in flight, so closing every channel ends every
// goroutine's range loop.
func baselineRing(n, hops int) int {
	ch := make([]chan int, n)
	for i := range ch {
		ch[i] = make(chan int, 1)
	}
	done := make(chan int, 1)
	var wg sync.WaitGroup
	for i := range n {
		in, out := ch[i], ch[(i+1)%n]
		wg.Go(func() {
			for tok := range in {
				if tok == hops {
					done <- tok
					continue
				}
				out <- tok + 1
			}
		})
	}
	ch[0] <- 0
	last := <-done
	for _, c := range ch {
		close(c)
	}
	wg.Wait()
	return last
}

// BenchmarkAllInitiators runs a Chang-Roberts-like ring where every node
// initiates (swallow): the workload of the million-node election.
func BenchmarkAllInitiators(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			f, msgs := swallowFactory(n, 1)
			b.ReportAllocs()
			for b.Loop() {
				res, err := runTurns(b.Context(), config{Nodes: n, Factory: f, Script: startAll(n)})
				if err != nil || res.Messages != msgs {
					b.Fatalf("%v: %+v", err, res)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(msgs), "ns/msg")
		})
	}
}
