// Run: go test -run '^$' -bench Signal -count 10 ./exercises/signal | tee new.txt
// Compare two runs (e.g. -cpu 1 vs -cpu 2, or before/after): benchstat old.txt new.txt
package signal

import (
	"sync"
	"sync/atomic"
	"testing"
)

// pingPong is a waiter goroutine that answers every ping with a pong. ping
// sends one signal and waits for the answer: two hand-offs.
type pingPong struct {
	ping func()
	stop func() // stops and joins the waiter
}

// BenchmarkSignal measures the latency of a signal hand-off: one op is a
// round trip (main signals the waiter, the waiter signals back), reported as
// ns/handoff = ns/op / 2. cpu-ns/op is the CPU the whole process burned per
// op (getrusage): spinning is fastest and burns two cores to get there.
func BenchmarkSignal(b *testing.B) {
	for _, bc := range []struct {
		impl string
		new  func() pingPong
	}{{ImplSpin, spinPingPong}, {ImplCond, condPingPong}, {ImplChan, chanPingPong}} {
		b.Run("impl="+bc.impl, func(b *testing.B) {
			pp := bc.new()
			defer pp.stop()
			b.ReportAllocs()
			cpu0, _ := CPUTime()
			n := 0
			for b.Loop() {
				pp.ping()
				n++
			}
			cpu1, _ := CPUTime()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*n), "ns/handoff")
			b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
		})
	}
}

func spinPingPong() pingPong {
	var seq, ack atomic.Int64 // seq < 0 tells the waiter to stop
	done := make(chan struct{})
	go func() {
		defer close(done)
		for last := int64(0); ; {
			s := seq.Load()
			if s < 0 {
				return
			}
			if s != last {
				last = s
				ack.Store(s)
			}
		}
	}()
	var n int64
	return pingPong{
		ping: func() {
			n++
			seq.Store(n)
			for ack.Load() != n {
			}
		},
		stop: func() { seq.Store(-1); <-done },
	}
}

func condPingPong() pingPong {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var seq, ack int64 // guarded by mu; seq < 0 tells the waiter to stop
	done := make(chan struct{})
	go func() {
		defer close(done)
		mu.Lock()
		defer mu.Unlock()
		for {
			for seq == ack {
				cond.Wait()
			}
			if seq < 0 {
				return
			}
			ack = seq
			cond.Broadcast()
		}
	}()
	return pingPong{
		ping: func() {
			mu.Lock()
			seq++
			cond.Broadcast()
			for ack != seq {
				cond.Wait()
			}
			mu.Unlock()
		},
		stop: func() {
			mu.Lock()
			seq = -1
			cond.Broadcast()
			mu.Unlock()
			<-done
		},
	}
}

func chanPingPong() pingPong {
	ping, pong := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range ping {
			pong <- struct{}{}
		}
	}()
	return pingPong{
		ping: func() { ping <- struct{}{}; <-pong },
		stop: func() { close(ping); <-done },
	}
}
