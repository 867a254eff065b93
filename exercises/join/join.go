// Package join is the `join` lesson of the concurrency chapter
// ("sleep that wakes early, and sleeping in slices until the deadline; join
// with a timeout ('got tired of waiting'); daemon threads"): waiting for a
// goroutine with a timeout, then cancelling and joining it; three ways to
// sleep until a deadline and how soon each notices a cancellation; and why Go
// has no daemon goroutines.
package join

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

// MaxDuration bounds every duration flag.
const MaxDuration = 10 * time.Second

const explain = `
join: waiting for a goroutine, and sleeping, in Go.

1. Join with a timeout. A worker needs --work; main waits for its done channel in a select
   with a --timeout timer. When the timer wins, main "got tired of waiting". The worker is
   still running: Go cannot kill a goroutine, only ask it to stop (cancel its context). So
   main cancels it and then joins it anyway; a goroutine nobody waits for is a leak.

2. Sleeping until a deadline when a cancel arrives early (after --cancel-after):
   - one long time.Sleep cannot be interrupted: it notices the cancel only when it ends;
   - sleeping in --slice slices and checking between them notices within one slice (this is
     the chapter's "sleep in slices until the deadline", which also survives early wake-ups);
   - a select on a timer and ctx.Done() wakes at once. That is the Go idiom.
   Unlike Java's Thread.sleep, time.Sleep never wakes early; the only way to be woken is to
   wait on something that can be signalled (a channel, ctx.Done()).

3. Daemon threads: Go has none, and no non-daemon ones either. When main returns, the process
   exits and every goroutine stops where it is, without running its deferred calls. A program
   that must finish work waits for it explicitly (WaitGroup, done channel, errgroup), as this
   lesson does.

Try: ringlab exercises join --timeout 500ms   (the worker finishes within the timeout)
`

// Config is one run of the lesson.
type Config struct {
	Work, Timeout      time.Duration // part 1
	Sleep, CancelAfter time.Duration // part 2
	Slice              time.Duration // part 2, sliced sleep
}

// Command returns the `exercises join` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "join",
		Usage: "join a goroutine with a timeout; sleeping until a deadline; no daemon goroutines",
		UsageText: "ringlab exercises join [--work 300ms] [--timeout 100ms] [--sleep 300ms] [--cancel-after 100ms] [--slice 20ms] [--explain]\n\n" +
			"Example:\n   ringlab exercises join --timeout 500ms",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "work", Value: 300 * time.Millisecond, Usage: "how long the worker works (1ms..10s)"},
			&cli.DurationFlag{Name: "timeout", Value: 100 * time.Millisecond, Usage: "how long main waits for the worker (1ms..10s)"},
			&cli.DurationFlag{Name: "sleep", Value: 300 * time.Millisecond, Usage: "how long each sleeper means to sleep (1ms..10s)"},
			&cli.DurationFlag{Name: "cancel-after", Value: 100 * time.Millisecond, Usage: "when the sleepers are cancelled (1ms..10s, shorter than --sleep)"},
			&cli.DurationFlag{Name: "slice", Value: 20 * time.Millisecond, Usage: "slice of the sliced sleep (1ms..--sleep)"},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	var cfg Config
	for _, f := range []struct {
		name string
		dst  *time.Duration
	}{{"work", &cfg.Work}, {"timeout", &cfg.Timeout}, {"sleep", &cfg.Sleep}, {"cancel-after", &cfg.CancelAfter}, {"slice", &cfg.Slice}} {
		v, err := lesson.Duration(c, f.name, time.Millisecond, MaxDuration)
		if err != nil {
			return err
		}
		*f.dst = v
	}
	if cfg.CancelAfter >= cfg.Sleep {
		return cliutil.Usagef("--cancel-after (%v) must be shorter than --sleep (%v): the lesson cancels a sleeper early", cfg.CancelAfter, cfg.Sleep)
	}
	if cfg.Slice > cfg.Sleep {
		return cliutil.Usagef("--slice (%v) must be at most --sleep (%v)", cfg.Slice, cfg.Sleep)
	}
	return Run(c.Context, cfg, c.App.Writer)
}

// Run runs the three parts and prints what happened to w. When ctx ends
// (Ctrl-C) it stops the part under way, says so, and returns ctx's error.
func Run(ctx context.Context, cfg Config, w io.Writer) error {
	fmt.Fprintf(w, "1. join with a timeout: the worker needs %v, main waits at most %v\n", cfg.Work, cfg.Timeout)
	r := JoinWithTimeout(ctx, cfg.Work, cfg.Timeout)
	switch {
	case r.Interrupted:
		fmt.Fprintf(w, "   interrupted after %v: cancelled the worker and joined it: it stopped after %v of its %v\n", ms(r.Waited), ms(r.WorkerRan), cfg.Work)
		return ctx.Err()
	case r.Finished:
		fmt.Fprintf(w, "   joined: the worker finished after %v, within the timeout\n", ms(r.WorkerRan))
	default:
		fmt.Fprintf(w, "   got tired of waiting after %v; the worker is still running\n", ms(r.Waited))
		fmt.Fprintf(w, "   cancelled it and joined it: it stopped after %v of its %v (goroutines are asked to stop, never killed)\n", ms(r.WorkerRan), cfg.Work)
	}
	fmt.Fprintf(w, "2. sleeping %v, cancelled after %v:\n", cfg.Sleep, cfg.CancelAfter)
	for _, s := range Sleepers(cfg.Slice) {
		late, err := SleepUntilCancelled(ctx, s, cfg.Sleep, cfg.CancelAfter)
		if err != nil {
			fmt.Fprintf(w, "   %-46s interrupted: %v\n", s.Name, err)
			return ctx.Err()
		}
		fmt.Fprintf(w, "   %-46s noticed the cancel %v late\n", s.Name, ms(late))
	}
	_, err := fmt.Fprintln(w, "3. daemon goroutines: Go has none; when main returns every goroutine dies mid-work, so this lesson joined all of its own")
	return err
}

// ms rounds d to the millisecond for printing.
func ms(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

// JoinResult is what main saw while joining the worker.
type JoinResult struct {
	Finished    bool          // the worker finished before the timeout
	Interrupted bool          // ctx ended first; the worker was cancelled and joined
	Waited      time.Duration // how long main waited before giving up
	WorkerRan   time.Duration // how long the worker ran in all
}

// JoinWithTimeout starts a worker that needs work, waits for it at most
// timeout, and if it is not done by then (or ctx ends first) cancels it and
// joins it.
func JoinWithTimeout(ctx context.Context, work, timeout time.Duration) JoinResult {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	done := make(chan time.Duration, 1) // buffered: the worker never blocks on its result
	go func() {
		t := time.NewTimer(work) // the "work"
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		done <- time.Since(start)
	}()
	giveUp := time.NewTimer(timeout)
	defer giveUp.Stop()
	interrupted := false
	select {
	case ran := <-done:
		return JoinResult{Finished: true, Waited: ran, WorkerRan: ran}
	case <-giveUp.C:
	case <-ctx.Done():
		interrupted = true
	}
	waited := time.Since(start)
	cancel()
	return JoinResult{Interrupted: interrupted, Waited: waited, WorkerRan: <-done} // the join
}

// Sleeper sleeps for d unless ctx is cancelled first (if it can notice).
type Sleeper struct {
	Name  string
	Sleep func(ctx context.Context, d time.Duration)
	Deaf  bool // it cannot notice a cancel: it sleeps its whole d
}

// Sleepers returns the three ways to sleep, the sliced one with slice.
func Sleepers(slice time.Duration) []Sleeper {
	return []Sleeper{
		{"one long time.Sleep:", func(_ context.Context, d time.Duration) {
			time.Sleep(d) // sleeping IS the lesson: nothing can cut it short
		}, true},
		{fmt.Sprintf("time.Sleep in %v slices until the deadline:", slice), func(ctx context.Context, d time.Duration) {
			deadline := time.Now().Add(d)
			for left := time.Until(deadline); left > 0 && ctx.Err() == nil; left = time.Until(deadline) {
				time.Sleep(min(slice, left))
			}
		}, false},
		{"select on a timer and ctx.Done():", func(ctx context.Context, d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
			}
		}, false},
	}
}

// SleepUntilCancelled runs s for d with a context cancelled after
// cancelAfter, and returns how long after the cancel the sleeper returned.
//
// If ctx ends first (Ctrl-C), it returns an error: a sleeper that can
// notice is woken by it and joined; a Deaf one (one long time.Sleep) is
// left asleep on its goroutine, the one goroutine the lesson cannot join,
// which dies when the process exits.
func SleepUntilCancelled(ctx context.Context, s Sleeper, d, cancelAfter time.Duration) (time.Duration, error) {
	sctx, cancel := context.WithTimeout(ctx, cancelAfter)
	defer cancel()
	start := time.Now()
	done := make(chan time.Duration, 1) // buffered: a sleeper left behind never blocks
	go func() {
		s.Sleep(sctx, d)
		done <- time.Since(start)
	}()
	interrupt := ctx.Done()
	if !s.Deaf {
		interrupt = nil // it wakes at the interrupt: join it
	}
	select {
	case slept := <-done:
		if ctx.Err() != nil && slept < cancelAfter { // Ctrl-C, not the lesson's cancel, woke it
			return 0, fmt.Errorf("woken after %v by the interrupt", ms(slept))
		}
		return max(0, slept-cancelAfter), nil
	case <-interrupt:
		return 0, fmt.Errorf("after %v, still asleep: nothing can wake a time.Sleep, so it is left behind and dies with the process", ms(time.Since(start)))
	}
}
