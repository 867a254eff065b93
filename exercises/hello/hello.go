// Package hello is the `hello` lesson of the concurrency chapter
// ("creating and joining threads; output order of hello from 5 threads vs 200
// or 1000"): N goroutines each print "hello from i of N"; the order the lines
// appear in is the scheduler's, not the program's. --ordered shows the usual
// fix: each goroutine writes into its own indexed slot and the owner prints
// the slots in order after joining them all.
package hello

import (
	"context"
	"fmt"
	"sync"

	"github.com/urfave/cli/v2"

	"ringlab/exercises/internal/lesson"
)

// MaxGoroutines bounds --goroutines.
const MaxGoroutines = 1_000_000

const explain = `
hello: N goroutines each print "hello from i of N", then main waits for all of them (a join).

What to observe:
  - The lines do not come out in the order the goroutines were started. With 5 goroutines
    the order often looks almost sorted, yet Go's scheduler typically runs the LAST goroutine
    started first (it sits in the "run next" slot), so "5 of 5" tends to lead. With 200 or
    1000 goroutines spread over all CPUs the order is visibly scrambled, and differs run to run.
  - The summary counts the lines that came right after a larger number ("out of order").
  - --ordered gives a deterministic order without making the goroutines wait for each other:
    goroutine i writes its line into slot i of a slice, main joins them (sync.WaitGroup) and
    prints the slots 1..N. Work runs in parallel; only the printing is ordered.

Why: starting a goroutine only makes it runnable. When it runs, and on which CPU, is up to
the scheduler, so program order between goroutines means nothing unless you synchronize.

Try: ringlab exercises hello --goroutines 200
     ringlab exercises hello --goroutines 200 --ordered
`

// Command returns the `exercises hello` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "hello",
		Usage: "N goroutines say hello: see the scheduler's order, then a deterministic one",
		UsageText: "ringlab exercises hello [--goroutines 5] [--ordered] [--explain]\n\n" +
			"Example:\n   ringlab exercises hello --goroutines 200",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "goroutines", Value: 5, Usage: fmt.Sprintf("goroutines to start (1..%d)", MaxGoroutines)},
			&cli.BoolFlag{Name: "ordered", Usage: "write into indexed slots and print them in order after the join"},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	n, err := lesson.Goroutines(c, "goroutines", 1, MaxGoroutines)
	if err != nil {
		return err
	}
	ctx := c.Context
	var order []int
	if c.Bool("ordered") {
		order = Ordered(ctx, n, func(line string) { fmt.Fprint(c.App.Writer, line) })
	} else {
		w := lesson.NewSyncWriter(c.App.Writer)
		order = Unordered(ctx, n, func(line string) { w.Printf("%s", line) })
		if err := w.Err(); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintf(c.App.Writer, "interrupted: %d of %d goroutines said hello (every goroutine started was joined); %d lines came right after a larger number\n",
			len(order), n, OutOfOrder(order))
		return ctx.Err()
	}
	_, err = fmt.Fprintf(c.App.Writer, "%d goroutines joined; %d lines came right after a larger number (out of order)\n", n, OutOfOrder(order))
	return err
}

// Line is what goroutine i (1-based) of n says.
func Line(i, n int) string { return fmt.Sprintf("hello from %d of %d\n", i, n) }

// Unordered starts n goroutines that each call emit with their line, and
// joins them. emit must be safe for concurrent use. It returns the numbers in
// the order the lines were emitted. Once ctx is done no goroutine is
// started and those started but not yet through say nothing.
func Unordered(ctx context.Context, n int, emit func(line string)) []int {
	var (
		mu    sync.Mutex
		order = make([]int, 0, n)
		wg    sync.WaitGroup
	)
	for i := 1; i <= n && ctx.Err() == nil; i++ {
		wg.Go(func() {
			mu.Lock() // record the order and emit as one step, so the record is true
			defer mu.Unlock()
			if ctx.Err() != nil {
				return
			}
			order = append(order, i)
			emit(Line(i, n))
		})
	}
	wg.Wait()
	return order
}

// Ordered starts n goroutines that each fill their own slot, joins them, then
// emits the slots in order from the calling goroutine. No two goroutines
// touch the same slot, so no lock is needed. Once ctx is done no goroutine
// is started and no more slots are emitted.
func Ordered(ctx context.Context, n int, emit func(line string)) []int {
	slots := make([]string, n)
	var wg sync.WaitGroup
	for i := 1; i <= n && ctx.Err() == nil; i++ {
		wg.Go(func() { slots[i-1] = Line(i, n) })
	}
	wg.Wait() // the join: every slot write happens before this returns
	order := make([]int, 0, n)
	for i, s := range slots {
		if s == "" || ctx.Err() != nil {
			break
		}
		emit(s)
		order = append(order, i+1)
	}
	return order
}

// OutOfOrder counts the entries that come right after a larger one.
func OutOfOrder(order []int) int {
	count := 0
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			count++
		}
	}
	return count
}
