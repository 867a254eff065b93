package ring

// Run the benchmarks, and compare two versions with benchstat:
//
//	go test -run '^$' -bench BenchmarkRing -count 10 ./ring > new.txt
//	go run golang.org/x/perf/cmd/benchstat@latest old.txt new.txt
//
// impl=baseline is a minimal hand-written channel ring doing the same job
// (upper-case the next lower-case letter on every hop, one last lap, every
// goroutine joined), so the ratio chan/baseline is the price of the
// package's structure, measured in one run.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// benchMessage is long enough that hops, not goroutine start-up, dominate
// even at 10,000 goroutines.
var benchMessage = strings.Repeat("abcdefghijklmnopqrstuvwxyz", 1000)

func BenchmarkRing(b *testing.B) {
	for _, impl := range []string{"baseline", ImplChan, ImplCond} {
		for _, n := range []int{30, 503, 10000} {
			b.Run(fmt.Sprintf("impl=%s/nodes=%d", impl, n), func(b *testing.B) {
				b.ReportAllocs()
				hops := 0
				for b.Loop() {
					if impl == "baseline" {
						hops += baselineRing(n, benchMessage)
						continue
					}
					res, err := Run(context.Background(), Config{Nodes: n, Message: benchMessage, Impl: impl}, nil)
					if err != nil {
						b.Fatal(err)
					}
					hops += res.Hops
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(hops), "ns/hop")
			})
		}
	}
}

// baselineRing is the ring with nothing but channels: no context, no
// callbacks, ASCII only. It returns the number of hops.
func baselineRing(n int, msg string) int {
	type tok struct {
		text     []byte
		next     int
		hops     int
		finisher int
	}
	chans := make([]chan *tok, n)
	for i := range chans {
		chans[i] = make(chan *tok, 1)
	}
	done := make(chan *tok, 1)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			in, out := chans[i], chans[(i+1)%n]
			for t := range in {
				t.hops++
				if t.next < len(t.text) {
					t.text[t.next] -= 'a' - 'A'
					t.next++
				}
				fin := t.next == len(t.text)
				if fin && t.finisher < 0 {
					t.finisher = i
				}
				if fin && (i+1)%n == t.finisher {
					done <- t
					return
				}
				out <- t
				if fin {
					return
				}
			}
		}()
	}
	chans[0] <- &tok{text: []byte(msg), finisher: -1}
	t := <-done
	wg.Wait()
	return t.hops
}

func TestBaselineRingAgrees(t *testing.T) {
	// The baseline must do the same job, or the ratio means nothing.
	for _, n := range []int{1, 3, 30} {
		res, err := Run(context.Background(), Config{Nodes: n, Message: "hello", Impl: ImplChan}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := baselineRing(n, "hello"); got != res.Hops {
			t.Fatalf("n=%d: baseline made %d hops, chan %d", n, got, res.Hops)
		}
	}
}
