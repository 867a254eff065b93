// Package twolocks is the chapter's "synchronized block" exercise and its
// deadlock (the course chapter on concurrency): MsLunch has two counters, each with its own lock;
// two goroutines loop, the first calling inc1 then inc2, the second inc2 then
// inc1. Without nesting that is fine. With --nested each goroutine holds its
// first lock while taking the second, in opposite orders: T1 holds lock1 and
// wants lock2, T2 holds lock2 and wants lock1, a deadlock. A watchdog reads
// who holds and waits for which lock, reports the cycle and aborts the
// waiters (exit 4); --ordered-locks is the fix: one global lock order.
package twolocks

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

// MaxLoops bounds --loops.
const MaxLoops = 10_000_000

const explain = `
two-locks: the chapter's MsLunch. Two counters c1 and c2, each guarded by its own lock
(lock1, lock2), so incrementing c1 never waits for someone incrementing c2. Goroutine T1
loops calling inc1 then inc2; T2 loops calling inc2 then inc1. Each prints c1 and c2 at the end.

What to observe:
  default          each inc takes ONE lock and releases it: no goroutine ever holds one lock
                   while asking for the other, so no deadlock; both counters end at 2 × --loops.
  --nested         each goroutine takes its first lock and, still holding it, the second:
                   T1 lock1 then lock2, T2 lock2 then lock1. T1 holds lock1 and waits for lock2,
                   T2 holds lock2 and waits for lock1: neither can ever go on. To make that
                   unlucky interleaving certain (instead of rare), on the first loop each
                   goroutine waits, after reaching its first lock, until the other reached its
                   own. The watchdog sees the cycle in its who-holds/who-waits table, prints it,
                   wakes the waiters so the program exits cleanly, and the exit code is 4.
  --nested --ordered-locks
                   the fix: every goroutine takes the locks in the same global order (lock1,
                   then lock2). Same lining-up on the first loop, yet no cycle is possible:
                   whoever holds lock1 never waits for a goroutine that holds lock1. Exit 0.

The locks are channel-based so the watchdog can abort a blocked Lock (a sync.Mutex cannot be
interrupted). Go's runtime reports "all goroutines are asleep - deadlock!" only when EVERY
goroutine is blocked, which is rarely true in a real program; hence the watchdog.
`

// Config is one run of the exercise.
type Config struct {
	Loops   int
	Nested  bool // hold the first lock while taking the second
	Ordered bool // with Nested: both goroutines take lock1 first
}

// Result is what the goroutines saw.
type Result struct {
	C1, C2      int
	Seen        [2]string // what T1 and T2 printed at their end
	Loops       [2]int    // loops T1 and T2 finished
	Interrupted bool      // the context ended first: the counts are partial
}

// errInterrupted ends a goroutine's loop when the context is done.
var errInterrupted = errors.New("interrupted")

// Command returns the `exercises two-locks` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "two-locks",
		Usage: "two counters, two locks: fine unnested, deadlock when nested in opposite order",
		UsageText: "ringlab exercises two-locks [--loops 1000] [--nested [--ordered-locks]] [--explain]\n\n" +
			"Example (deadlock, detected, exit 4):\n   ringlab exercises two-locks --nested",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "loops", Value: 1000, Usage: fmt.Sprintf("iterations of each goroutine (1..%d)", MaxLoops)},
			&cli.BoolFlag{Name: "nested", Usage: "hold the first lock while taking the second (opposite orders: deadlock)"},
			&cli.BoolFlag{Name: "ordered-locks", Usage: "with --nested: both goroutines take lock1 before lock2 (the fix)"},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	cfg := Config{Nested: c.Bool("nested"), Ordered: c.Bool("ordered-locks")}
	var err error
	if cfg.Loops, err = lesson.Int(c, "loops", 1, MaxLoops); err != nil {
		return err
	}
	if cfg.Ordered && !cfg.Nested {
		return cliutil.Usagef("--ordered-locks only matters with --nested: without nesting no goroutine holds one lock while taking the other")
	}
	how := "inc1 and inc2, each under its own lock"
	if cfg.Nested {
		how = "each holds its first lock while it takes the second, in opposite orders"
		if cfg.Ordered {
			how = "each holds lock1 while it takes lock2 (one order for both)"
		}
	}
	fmt.Fprintf(c.App.Writer, "T1 and T2 loop %d times each: %s\n", cfg.Loops, how)
	res, deadlock := Run(c.Context, cfg)
	if deadlock != "" {
		fmt.Fprintf(c.App.Writer, "watchdog: deadlock: %s\n", deadlock)
		return cliutil.NoTerminationf("two-locks --nested: deadlock (lock ordering); the watchdog aborted both waits. Fix: --ordered-locks")
	}
	for _, s := range res.Seen {
		fmt.Fprintln(c.App.Writer, s)
	}
	if res.Interrupted {
		fmt.Fprintf(c.App.Writer, "interrupted: T1 ran %d and T2 %d of their %d loops; c1=%d c2=%d (want %d each)\n",
			res.Loops[0], res.Loops[1], cfg.Loops, res.C1, res.C2, res.Loops[0]+res.Loops[1])
		return c.Context.Err()
	}
	_, err = fmt.Fprintf(c.App.Writer, "final c1=%d c2=%d (want %d each)\n", res.C1, res.C2, 2*cfg.Loops)
	return err
}

// lunch is MsLunch: c1 is guarded by lock1, c2 by lock2.
type lunch struct {
	lock1, lock2 *Lock
	c1, c2       int
}

// Run runs T1 and T2 and the watchdog, joins all three, and returns the
// counters, or the watchdog's description of the deadlock. Once ctx is done
// each goroutine stops before its next loop: the counters are partial.
func Run(ctx context.Context, cfg Config) (Result, string) {
	m := NewMonitor()
	l := &lunch{lock1: m.NewLock("lock1"), lock2: m.NewLock("lock2")}
	stop := make(chan struct{})
	report := make(chan string, 1)
	go func() { report <- m.Watch(stop) }()

	// T1 goes lock1 -> lock2. T2 goes lock2 -> lock1, or lock1 -> lock2 when ordered.
	orders := [2][2]*Lock{{l.lock1, l.lock2}, {l.lock2, l.lock1}}
	if cfg.Ordered {
		orders[1] = orders[0]
	}
	arrived := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	var res Result
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			me := fmt.Sprintf("T%d", i+1)
			var err error
			if cfg.Nested {
				res.Loops[i], err = l.nested(ctx, me, cfg.Loops, orders[i], arrived[i], arrived[1-i], m.abort)
			} else {
				res.Loops[i], err = l.separate(ctx, me, cfg.Loops, orders[i])
			}
			switch err {
			case nil:
				res.Seen[i] = l.snapshot(me)
			case errInterrupted:
				res.Seen[i] = l.snapshot(me) + fmt.Sprintf(" (interrupted after %d loops)", res.Loops[i])
			}
		})
	}
	wg.Wait()
	close(stop)
	if r := <-report; r != "" {
		return Result{}, r
	}
	res.C1, res.C2 = l.c1, l.c2
	res.Interrupted = res.Loops != [2]int{cfg.Loops, cfg.Loops}
	return res, ""
}

// separate is the unnested loop: inc on the first counter, then on the second,
// each under its own lock only. It returns the loops it finished.
func (l *lunch) separate(ctx context.Context, me string, loops int, order [2]*Lock) (int, error) {
	for i := range loops {
		if ctx.Err() != nil {
			return i, errInterrupted
		}
		for _, lk := range order {
			if err := lk.Lock(me, nil); err != nil {
				return i, err
			}
			l.inc(lk)
			lk.Unlock()
		}
	}
	return loops, nil
}

// nested holds the first lock while taking the second. On the first loop it
// closes mine once it reached its first lock, and waits for the other
// goroutine's arrival before going on: this lines the two up so that the
// opposite-order deadlock happens every time.
func (l *lunch) nested(ctx context.Context, me string, loops int, order [2]*Lock, mine, other chan struct{}, abort <-chan struct{}) (int, error) {
	for i := range loops {
		if i > 0 && ctx.Err() != nil { // the first loop always runs: the other goroutine waits for this one's arrival
			return i, errInterrupted
		}
		var arrived func()
		if i == 0 {
			arrived = func() { close(mine) }
		}
		if err := order[0].Lock(me, arrived); err != nil {
			return i, err
		}
		if i == 0 {
			select {
			case <-other:
			case <-abort:
			}
		}
		if err := order[1].Lock(me, nil); err != nil {
			order[0].Unlock()
			return i, err
		}
		l.inc(order[0])
		l.inc(order[1])
		order[1].Unlock()
		order[0].Unlock()
	}
	return loops, nil
}

// inc increments the counter that lk guards; the caller holds lk.
func (l *lunch) inc(lk *Lock) {
	if lk == l.lock1 {
		l.c1++
	} else {
		l.c2++
	}
}

// snapshot reads both counters, each under its own lock, as "T1: c1=.. c2=..".
func (l *lunch) snapshot(me string) string {
	if l.lock1.Lock(me, nil) != nil {
		return me + ": aborted"
	}
	c1 := l.c1
	l.lock1.Unlock()
	if l.lock2.Lock(me, nil) != nil {
		return me + ": aborted"
	}
	c2 := l.c2
	l.lock2.Unlock()
	return fmt.Sprintf("%s: c1=%d c2=%d", me, c1, c2)
}
