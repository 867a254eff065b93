// Package falseshare is the `false-sharing` lesson of the concurrency chapter
// (the course chapter on concurrency, "false sharing"): two goroutines each increment their own
// counter, with no data shared between them, yet when the two counters sit
// on one cache line every write by one core invalidates the line in the
// other core's cache, and the line ping-pongs between them. Padding the
// counters onto separate lines removes the slowdown.
//
// The counters are uint64 fields incremented with atomic.AddUint64, as a
// shared statistics counter would be: the two goroutines touch different
// variables (there is no data race and no logical sharing), but each atomic
// add must own the whole cache line exclusively while it runs. Plain
// increments show the effect too on many CPUs, but some (AMD Zen 3, for one)
// hide most of it in the store buffer. The tests check the counts; the
// figures are measurements, reported by the command and BenchmarkFalseSharing.
package falseshare

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Implementations accepted by Run.
const (
	ImplPacked = "packed" // both counters on one cache line
	ImplPadded = "padded" // each counter on its own cache line (and pair)
)

// Packed holds two counters side by side: 16 bytes, almost always inside
// one 64-byte cache line.
type Packed struct {
	A uint64
	B uint64
}

// cacheLinePad is the padding between the counters. A cache line is 64
// bytes on x86-64 and most ARM64 cores, but Intel's adjacent-line
// (spatial) prefetcher fetches lines in 128-byte pairs, and Apple M-series
// lines are 128 bytes, so 128 bytes apart is the safe distance (it is what
// golang.org/x/sys/cpu.CacheLinePad uses on those targets).
const cacheLinePad = 128

// Padded holds two counters at least 128 bytes apart, written out:
// A, then 120 bytes of padding, then B, then padding so that whatever the
// allocator places after the struct does not share B's line either.
type Padded struct {
	A uint64
	_ [cacheLinePad - 8]byte
	B uint64
	_ [cacheLinePad - 8]byte
}

// Result is one run: the wall time and the final counters.
type Result struct {
	Elapsed     time.Duration
	A, B        uint64
	Interrupted bool // ctx ended first: the counters fall short of n
}

// Run starts two goroutines that increment A and B n times each, on the
// layout impl, waits for both, and returns the time the pair took on the
// monotonic clock.
//
// Once ctx is done both goroutines stop within a chunk of increments (they
// look at a stop flag between chunks, never inside the measured loop) and
// the result is Interrupted.
func Run(ctx context.Context, impl string, n int) (Result, error) {
	var a, b *uint64
	switch impl {
	case ImplPacked:
		c := new(Packed)
		a, b = &c.A, &c.B
	case ImplPadded:
		c := new(Padded)
		a, b = &c.A, &c.B
	default:
		return Result{}, fmt.Errorf("unknown implementation %q (want packed or padded)", impl)
	}
	var stop atomic.Bool         // written once, at the interrupt: read-only while measuring
	stop.Store(ctx.Err() != nil) // AfterFunc runs f on a goroutine of its own, even for a done ctx
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var wg sync.WaitGroup
	start := time.Now()
	wg.Go(func() { increment(a, n, &stop) })
	wg.Go(func() { increment(b, n, &stop) })
	wg.Wait()
	elapsed := time.Since(start)
	return Result{Elapsed: elapsed, A: *a, B: *b, Interrupted: *a < uint64(n) || *b < uint64(n)}, nil
}

// chunk is how many increments run between two looks at the stop flag:
// enough that the look costs nothing, few enough (well under a
// millisecond) that an interrupt is seen at once.
const chunk = 1 << 14

// increment adds 1 to *p n times, atomically, unless stop is set first.
func increment(p *uint64, n int, stop *atomic.Bool) {
	for left := n; left > 0 && !stop.Load(); left -= chunk {
		for range min(chunk, left) {
			atomic.AddUint64(p, 1)
		}
	}
}
