// Package counter is the chapter's "counter" exercise (the course chapter on concurrency): 10
// goroutines share ONE counter, each increments it 20 times and prints the
// value prefixed by its name; main waits for all. The unsafe counter loses
// updates (and is a data race); a mutex, an atomic and a goroutine that owns
// the counter do not; --print-inside prints inside the critical section so
// the output comes out in order.
package counter

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

// Implementations, for --impl.
const (
	ImplUnsafe  = "unsafe"
	ImplMutex   = "mutex"
	ImplAtomic  = "atomic"
	ImplChannel = "channel"
)

// Bounds of the count flags.
const (
	MaxGoroutines = 1_000_000
	MaxIncrements = 1_000_000
	MaxTotal      = 100_000_000 // goroutines × increments
)

const explain = `
counter: --goroutines goroutines share ONE counter; each increments it --increments times and
prints "name: value" after each increment; main waits for all of them, then checks the total.

What to observe:
  --impl unsafe   the increment is read, then write. Two goroutines that read the same value
                  both write value+1, and one update is lost: the final value is smaller than
                  goroutines × increments ("lost Z updates"). It is also a data race: build
                  with -race and the detector reports it (exit 66). Try --goroutines 1000
                  --increments 1000 --quiet.
  --impl mutex    the "synchronized" counter: the final value is exact. The printed values
                  still come out of order, because each goroutine prints AFTER it unlocked.
  --impl atomic   one indivisible add (Java's AtomicInteger); exact, no lock.
  --impl channel  one goroutine owns the counter and the others send it requests; exact.
  --print-inside  (mutex, channel) print while still holding the counter: now the lines come
                  out in increasing order, at the price of printing inside the critical section.

The summary counts the lines printed after a larger value ("out of order").
`

// Config is one run of the exercise.
type Config struct {
	Impl        string
	Goroutines  int
	Increments  int
	PrintInside bool // print inside the critical section (mutex, channel)
	Quiet       bool // print only the summary
}

// Result is what a run counted.
type Result struct {
	Expected, Got int64
	Lines         int // lines printed
	OutOfOrder    int // lines printed after a larger value
	// Interrupted: ctx ended first; Expected counts the increments made.
	Interrupted bool
	Planned     int64 // goroutines × increments
}

// Command returns the `exercises counter` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "counter",
		Usage: "goroutines share one counter: lost updates, then mutex, atomic and channel fixes",
		UsageText: "ringlab exercises counter [--impl mutex|atomic|channel|unsafe] [--goroutines 10] [--increments 20] [--print-inside] [--quiet] [--explain]\n\n" +
			"Example:\n   ringlab exercises counter --impl unsafe --goroutines 1000 --increments 1000 --quiet",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "impl", Value: ImplMutex, Usage: "unsafe (read, yield, write: loses updates), mutex, atomic or channel"},
			&cli.IntFlag{Name: "goroutines", Value: 10, Usage: fmt.Sprintf("goroutines sharing the counter (1..%d)", MaxGoroutines)},
			&cli.IntFlag{Name: "increments", Value: 20, Usage: fmt.Sprintf("increments per goroutine (1..%d; goroutines × increments at most %d)", MaxIncrements, MaxTotal)},
			&cli.BoolFlag{Name: "print-inside", Usage: "print inside the critical section (mutex, channel): ordered output"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only the summary, not a line per increment"},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	cfg := Config{PrintInside: c.Bool("print-inside"), Quiet: c.Bool("quiet")}
	var err error
	if cfg.Impl, err = lesson.OneOf(c, "impl", ImplUnsafe, ImplMutex, ImplAtomic, ImplChannel); err != nil {
		return err
	}
	if cfg.Goroutines, err = lesson.Goroutines(c, "goroutines", 1, MaxGoroutines); err != nil {
		return err
	}
	if cfg.Increments, err = lesson.Int(c, "increments", 1, MaxIncrements); err != nil {
		return err
	}
	if total := cfg.Goroutines * cfg.Increments; total > MaxTotal {
		return cliutil.Usagef("--goroutines × --increments must be at most %d, got %d", MaxTotal, total)
	}
	if cfg.PrintInside && !SupportsInside(cfg.Impl) {
		return cliutil.Usagef("--print-inside needs a critical section: use it with --impl mutex or channel, not %s", cfg.Impl)
	}
	res := Run(c.Context, cfg, c.App.Writer)
	shown := "printed"
	if cfg.Quiet {
		shown = "not printed (--quiet)"
	}
	if res.Interrupted {
		fmt.Fprintf(c.App.Writer, "interrupted after %d of %d increments: %d values %s; %d came after a larger value; the counter holds %d (lost %d updates)\n",
			res.Expected, res.Planned, res.Lines, shown, res.OutOfOrder, res.Got, res.Expected-res.Got)
		return c.Context.Err()
	}
	fmt.Fprintf(c.App.Writer, "%d values %s; %d came after a larger value (out of order)\n", res.Lines, shown, res.OutOfOrder)
	if res.Got == res.Expected {
		fmt.Fprintf(c.App.Writer, "expected %d, got %d: no update lost\n", res.Expected, res.Got)
		return nil
	}
	fmt.Fprintf(c.App.Writer, "expected %d, got %d (lost %d updates)\n", res.Expected, res.Got, res.Expected-res.Got)
	if cfg.Impl == ImplUnsafe {
		return nil // losing updates is what this variant demonstrates
	}
	return cliutil.Violationf("counter --impl %s lost %d updates", cfg.Impl, res.Expected-res.Got)
}

// SupportsInside reports whether impl has a critical section to print in.
func SupportsInside(impl string) bool { return impl == ImplMutex || impl == ImplChannel }

// New returns a fresh counter of impl and a func that releases it (stops the
// channel counter's owner goroutine). It panics on an unknown impl.
func New(ctx context.Context, impl string) (Counter, func()) {
	switch impl {
	case ImplUnsafe:
		return &UnsafeCounter{}, func() {}
	case ImplMutex:
		return &MutexCounter{}, func() {}
	case ImplAtomic:
		return &AtomicCounter{}, func() {}
	case ImplChannel:
		c := NewChanCounter(ctx)
		return c, c.Close
	}
	panic("counter: unknown impl " + impl)
}

// Run starts cfg.Goroutines goroutines that share one counter, joins them
// and returns the counts. Lines go to w (several goroutines print, so each
// line is written whole under a lock). Once ctx is done no goroutine starts
// and each stops before its next increment: the result is Interrupted and
// Expected counts the increments made.
func Run(ctx context.Context, cfg Config, w io.Writer) Result {
	// The counter lives until release, not until ctx: a channel counter's
	// owner must outlive every goroutine that may still call Inc.
	ctr, release := New(context.WithoutCancel(ctx), cfg.Impl)
	var stop atomic.Bool
	stop.Store(ctx.Err() != nil)
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	p := &printer{w: w, quiet: cfg.Quiet}
	width := len(fmt.Sprint(cfg.Goroutines))
	done := make([]int64, cfg.Goroutines) // increments made, one slot per goroutine
	var wg sync.WaitGroup
	for i := range cfg.Goroutines {
		if stop.Load() {
			break
		}
		name := fmt.Sprintf("g%0*d", width, i+1)
		print := func(v int64) { p.line(name, v) }
		wg.Go(func() {
			for range cfg.Increments {
				if stop.Load() {
					return
				}
				if cfg.PrintInside {
					ctr.Inc(print)
				} else {
					print(ctr.Inc(nil))
				}
				done[i]++
			}
		})
	}
	wg.Wait() // main waits for all, as in the exercise
	release()
	res := Result{Got: ctr.Value(), Lines: p.lines, OutOfOrder: p.late, Planned: int64(cfg.Goroutines) * int64(cfg.Increments)}
	for _, d := range done {
		res.Expected += d
	}
	res.Interrupted = res.Expected < res.Planned
	return res
}

// printer writes "name: value" lines whole and counts the ones that come
// after a larger value. It must not be copied.
type printer struct {
	mu      sync.Mutex
	w       io.Writer
	quiet   bool
	buf     strings.Builder
	maxSeen int64
	lines   int
	late    int
}

func (p *printer) line(name string, v int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines++
	if v < p.maxSeen {
		p.late++
	}
	p.maxSeen = max(p.maxSeen, v)
	if !p.quiet {
		p.buf.Reset()
		fmt.Fprintf(&p.buf, "%s: %d\n", name, v)
		io.WriteString(p.w, p.buf.String())
	}
}
