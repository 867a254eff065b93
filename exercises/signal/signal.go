// Package signal is the `signal` lesson of the concurrency chapter
// ("signalling: busy waiting on a flag vs wait/notifyAll"): one goroutine
// waits until another says "ready", three ways: spinning on an atomic flag,
// sync.Cond (Go's wait/notifyAll), and closing a channel. The lesson measures
// the CPU time each burns while waiting.
package signal

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/exercises/internal/lesson"
)

// Implementations, for --impl.
const (
	ImplSpin = "spin"
	ImplCond = "cond"
	ImplChan = "chan"
	ImplAll  = "all"
)

// MaxWait bounds --wait.
const MaxWait = 10 * time.Second

const explain = `
signal: a goroutine waits until another one says "ready" after --wait. Three ways:

  spin   busy waiting: for !ready.Load() {}  The waiter keeps one CPU at 100% doing nothing
         useful. (The flag must be atomic: a plain bool read in a loop is a data race, and the
         compiler may hoist the read out of the loop so the waiter never sees the change.)
  cond   sync.Cond, Go's wait/notifyAll: the waiter locks a mutex and calls Wait in a loop
         "for !ready { cond.Wait() }"; the setter sets ready under the mutex and Broadcasts.
         The waiter sleeps: no CPU until it is woken. Always re-check the condition in a loop.
  chan   close(ready): every receiver on the channel wakes. The usual Go idiom for a one-time
         signal, and it composes with select (timeouts, ctx.Done()).

What to observe: the "cpu" column. It is the CPU time (user+system) of the whole process,
read with getrusage(RUSAGE_SELF) before and after each variant, so it includes the setter and
the Go runtime: spin burns about as much CPU as it waits (~100% of one core), cond and chan
almost none. Wall time is the same for all three.

Benchmark: go test -run '^$' -bench Signal ./exercises/signal (the latency of one hand-off).
`

// Result is one variant's run.
type Result struct {
	Impl        string
	Wall        time.Duration
	CPU         time.Duration
	Measured    bool          // CPU was measured (unix)
	Interrupted bool          // ctx ended before the signal was due: Wall is how long it waited
	Wait        time.Duration // when the signal was due
}

// Command returns the `exercises signal` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "signal",
		Usage: "busy waiting on a flag vs sync.Cond vs a channel: the CPU each burns while waiting",
		UsageText: "ringlab exercises signal [--wait 200ms] [--impl all|spin|cond|chan] [--explain]\n\n" +
			"Example:\n   ringlab exercises signal --wait 1s",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "wait", Value: 200 * time.Millisecond, Usage: "how long until the signal (1ms..10s)"},
			&cli.StringFlag{Name: "impl", Value: ImplAll, Usage: "all, spin, cond or chan"},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	wait, err := lesson.Duration(c, "wait", time.Millisecond, MaxWait)
	if err != nil {
		return err
	}
	impl, err := lesson.OneOf(c, "impl", ImplAll, ImplSpin, ImplCond, ImplChan)
	if err != nil {
		return err
	}
	impls := []string{impl}
	if impl == ImplAll {
		impls = []string{ImplSpin, ImplCond, ImplChan}
	}
	fmt.Fprintf(c.App.Writer, "waiting %v for the signal (cpu = user+sys of the whole process, getrusage RUSAGE_SELF)\n", wait)
	for _, impl := range impls {
		r := Run(c.Context, impl, wait)
		if err := Print(c.App.Writer, r); err != nil {
			return err
		}
		if r.Interrupted { // the variants not run yet are left out
			return c.Context.Err()
		}
	}
	return nil
}

// Print writes one result line; an interrupted wait is said to be so,
// with what it burned over the time it did wait.
func Print(w io.Writer, r Result) error {
	wall := fmt.Sprintf("wall %8v", r.Wall.Round(time.Millisecond))
	if r.Interrupted {
		wall = fmt.Sprintf("interrupted after %v of %v", r.Wall.Round(time.Millisecond), r.Wait)
	}
	if !r.Measured {
		_, err := fmt.Fprintf(w, "%-5s %s  cpu not measured on this platform\n", r.Impl, wall)
		return err
	}
	pct := 100 * float64(r.CPU) / float64(max(r.Wall, time.Millisecond))
	_, err := fmt.Fprintf(w, "%-5s %s  cpu %8v  (%3.0f%% of one core)\n", r.Impl, wall, r.CPU.Round(time.Millisecond), pct)
	return err
}

// Run makes a setter goroutine signal after wait (or at once when ctx ends:
// then the result is Interrupted), waits for the signal the impl way, joins
// the setter and measures. A context already done runs nothing.
func Run(ctx context.Context, impl string, wait time.Duration) Result {
	if ctx.Err() != nil {
		return Result{Impl: impl, Wait: wait, Interrupted: true, Measured: true} // nothing ran: no CPU burned
	}
	signal, waitFor := New(impl)
	cpu0, ok0 := CPUTime()
	start := time.Now()
	setter := make(chan struct{})
	interrupted := false // written by the setter before it closes setter
	go func() {
		defer close(setter)
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			interrupted = true
		}
		signal()
	}()
	waitFor()
	wall := time.Since(start)
	<-setter
	cpu1, ok1 := CPUTime()
	return Result{Impl: impl, Wall: wall, CPU: cpu1 - cpu0, Measured: ok0 && ok1 && wall > 0, Interrupted: interrupted, Wait: wait}
}

// New returns a one-shot signal of impl: signal may be called once, and
// waitFor returns once signal was called. It panics on an unknown impl.
func New(impl string) (signal, waitFor func()) {
	switch impl {
	case ImplSpin:
		var ready atomic.Bool
		return func() { ready.Store(true) }, func() {
			for !ready.Load() { // busy waiting: the lesson
			}
		}
	case ImplCond:
		var mu sync.Mutex
		cond := sync.NewCond(&mu)
		ready := false
		return func() {
				mu.Lock()
				ready = true
				mu.Unlock()
				cond.Broadcast()
			}, func() {
				mu.Lock()
				for !ready {
					cond.Wait()
				}
				mu.Unlock()
			}
	case ImplChan:
		ready := make(chan struct{})
		return func() { close(ready) }, func() { <-ready }
	}
	panic("signal: unknown impl " + impl)
}
