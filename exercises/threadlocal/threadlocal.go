// Package threadlocal is the `thread-local` lesson of the concurrency chapter
// (the course chapter on concurrency, "thread-local values"): Go has no goroutine-local storage, on
// purpose. The lesson shows what replaces it: state owned by the goroutine
// (local variables, results handed back through indexed slots) and
// request-scoped values carried in a context.Context; and why a per-thread
// value would be wrong in Go: goroutines move between OS threads.
package threadlocal

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/exercises/internal/lesson"
)

// Bounds of the count flags.
const (
	MaxWorkers  = 1000
	MaxRequests = 1000
)

const explain = `
thread-local: Java's ThreadLocal gives each thread its own copy of a variable. Go has no
goroutine-local storage, and no goroutine id to build one from, on purpose. Three parts:

1. State owned by the goroutine. Each worker keeps its running total in a LOCAL variable: nobody
   else can see it, so it needs no lock. When it is done it writes its result into its own slot
   of a slice (slot i belongs to worker i) and the owner reads the slots after joining. That is
   the common replacement for a per-thread counter, buffer or random generator.
2. Request-scoped values in a context.Context. A request id is put in the context once
   (context.WithValue) and every function the request passes through reads it from the ctx
   parameter: no global, no thread lookup, and it follows the request into any goroutine the
   request starts. Use it for request-scoped data (ids, deadlines), not for optional parameters.
3. Why not per-thread: a goroutine is not a thread. The scheduler moves goroutines between OS
   threads at every blocking point (here: a 1ms simulated I/O wait per request), so a value keyed by the OS thread would change
   under a goroutine's feet. The count of threads each worker ran on shows it (Linux; it varies
   from run to run). runtime.LockOSThread pins a goroutine to its thread, for C libraries that
   keep thread-local state; it is not a storage mechanism.
`

// Command returns the `exercises thread-local` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "thread-local",
		Usage: "no goroutine-local storage: goroutine-owned state and context values instead",
		UsageText: "ringlab exercises thread-local [--workers 4] [--requests 3] [--explain]\n\n" +
			"Example:\n   ringlab exercises thread-local --workers 8",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "workers", Value: 4, Usage: fmt.Sprintf("worker goroutines (1..%d)", MaxWorkers)},
			&cli.IntFlag{Name: "requests", Value: 3, Usage: fmt.Sprintf("requests each worker handles (1..%d)", MaxRequests)},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	workers, err := lesson.Goroutines(c, "workers", 1, MaxWorkers)
	if err != nil {
		return err
	}
	requests, err := lesson.Int(c, "requests", 1, MaxRequests)
	if err != nil {
		return err
	}
	return Print(c.App.Writer, Run(c.Context, workers, requests))
}

// Report is one worker's slot: written only by that worker, read by the
// owner after the join.
type Report struct {
	Handled int      // requests handled
	Total   int      // the worker's own running total (sum of request numbers)
	Log     []string // the log lines its requests wrote, via the context
	Threads []int    // distinct OS threads the worker was seen on
}

// requestIDKey is the context key of the request id; an unexported type, so
// no other package can collide with it.
type requestIDKey struct{}

// WithRequestID returns ctx carrying id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id in ctx, or "-".
func RequestID(ctx context.Context) string {
	if id, ok := ctx.Value(requestIDKey{}).(string); ok {
		return id
	}
	return "-"
}

// Run starts workers goroutines, each handling requests requests, joins them
// and returns their slots.
func Run(ctx context.Context, workers, requests int) []Report {
	slots := make([]Report, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { slots[w] = work(ctx, w+1, requests) })
	}
	wg.Wait()
	return slots
}

// work is one worker. Everything it changes is local until it returns.
func work(ctx context.Context, w, requests int) Report {
	var r Report // owned by this goroutine: no lock
	seen := func() {
		if tid := threadID(); !slices.Contains(r.Threads, tid) {
			r.Threads = append(r.Threads, tid)
		}
	}
	for n := 1; n <= requests; n++ {
		seen()
		rctx := WithRequestID(ctx, fmt.Sprintf("w%d-r%d", w, n))
		r.Log = append(r.Log, handle(rctx, n)...)
		r.Handled++
		r.Total += n
		ioWait(ctx) // the goroutine parks; when it wakes it may run on another thread
		seen()
	}
	return r
}

// ioWait stands for a blocking call (network, disk): the worker parks for a
// millisecond, or until ctx ends.
func ioWait(ctx context.Context) {
	t := time.NewTimer(time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// handle stands for a request's call chain: neither step takes the id as a
// parameter; they read it from ctx.
func handle(ctx context.Context, n int) []string {
	return []string{logLine(ctx, "parse"), logLine(ctx, fmt.Sprintf("reply %d", n))}
}

func logLine(ctx context.Context, msg string) string {
	return fmt.Sprintf("[%s] %s", RequestID(ctx), msg)
}

// Print writes the three parts of the lesson.
func Print(w io.Writer, slots []Report) error {
	var b strings.Builder
	b.WriteString("1. state owned by each goroutine, handed back in its own slot after the join:\n")
	for i, r := range slots {
		fmt.Fprintf(&b, "   worker %d: handled %d requests, its own total %d\n", i+1, r.Handled, r.Total)
	}
	b.WriteString("2. request ids carried by context.Context (no parameter, no global):\n")
	for _, r := range slots {
		fmt.Fprintf(&b, "   %s\n", strings.Join(r.Log, "  "))
	}
	b.WriteString("3. why not per-thread: goroutines move between OS threads\n")
	if len(slots) > 0 && slices.Contains(slots[0].Threads, -1) {
		b.WriteString("   (OS thread ids are only shown on Linux)\n")
	} else {
		threads, moved := map[int]bool{}, 0
		for _, r := range slots {
			for _, t := range r.Threads {
				threads[t] = true
			}
			if len(r.Threads) > 1 {
				moved++
			}
		}
		fmt.Fprintf(&b, "   %d workers ran on %d OS threads in all; %d of them ran on more than one thread\n", len(slots), len(threads), moved)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
