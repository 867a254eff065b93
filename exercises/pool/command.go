package pool

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
	"ringlab/internal/racebuild"
)

const explanation = `pool: the executor toolbox (the course chapter on concurrency, "executors").

What to observe:
  - futures: a fixed number of workers run many tasks; each Submit returns a
    future (a channel closed when the result is ready). The queue is bounded,
    so a fast submitter waits for room: that count is the pool's back-pressure.
  - invoke-all keeps every result, in submission order, however the tasks
    finish; invoke-any keeps the first answer and cancels the slower ones,
    then still waits for them to return, so no goroutine is left behind.
  - fork-join splits a big sum in halves until a piece is small, forks one half
    into a goroutine, computes the other itself, and joins the two results.
  - fixed rate (time.Ticker) starts runs every period from the first start;
    fixed delay sleeps the period after each run, so its starts drift by the
    run's own duration. If a run outlasts the period, fixed rate starts the
    next run late and drops the ticks it missed.
`

// Limits on the flags.
const (
	maxWorkers = 1024
	maxQueue   = 100_000
	maxTasks   = 100_000
	maxN       = 1_000_000_000
	maxLeaves  = 1_000_000
	maxRuns    = 50
	maxPeriod  = 5 * time.Second
	chunk      = 10_000 // numbers summed by each future's task
)

// Command returns the `exercises pool` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:      "pool",
		Usage:     "worker pool with a bounded queue, futures, invoke-all/any, fork-join, fixed rate vs fixed delay",
		UsageText: "ringlab exercises pool [--workers 4] [--queue 8] [--tasks 64] [--n N] [--threshold T] [--period 100ms] [--work 30ms] [--runs 5] [--explain]\n\nExample:\n   ringlab exercises pool --workers 2 --queue 1",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "workers", Value: 4, Usage: fmt.Sprintf("worker goroutines in the pool (1..%d)", maxWorkers)},
			&cli.IntFlag{Name: "queue", Value: 8, Usage: fmt.Sprintf("capacity of the pool's task queue (1..%d)", maxQueue)},
			&cli.IntFlag{Name: "tasks", Value: 64, Usage: fmt.Sprintf("tasks submitted for futures (1..%d)", maxTasks)},
			&cli.IntFlag{Name: "n", Value: 100_000_000, Usage: fmt.Sprintf("fork-join sums 0..n-1 (1..%d)", maxN)},
			&cli.IntFlag{Name: "threshold", Value: 1_000_000, Usage: fmt.Sprintf("fork-join stops splitting at this many numbers (>= 1, at most %d leaves)", maxLeaves)},
			&cli.DurationFlag{Name: "period", Value: 100 * time.Millisecond, Usage: "scheduled work: the rate, and the delay (1ms..5s)"},
			&cli.DurationFlag{Name: "work", Value: 30 * time.Millisecond, Usage: "scheduled work: how long each run takes (0..5s)"},
			&cli.IntFlag{Name: "runs", Value: 5, Usage: fmt.Sprintf("scheduled work: runs of each kind (1..%d)", maxRuns)},
		},
	}, explanation, action)
}

type config struct {
	workers, queue, tasks, n, threshold, runs int
	period, work                              time.Duration
}

func action(c *cli.Context) error {
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	return run(c.Context, c.App.Writer, cfg)
}

// readConfig reads and checks the flags; bad input is a usage error.
func readConfig(c *cli.Context) (cfg config, err error) {
	r := lesson.NewReader(c)
	cfg.workers = r.Goroutines("workers", 1, maxWorkers)
	cfg.queue = r.Int("queue", 1, maxQueue)
	cfg.tasks = r.Int("tasks", 1, maxTasks)
	cfg.n = r.Int("n", 1, maxN)
	if r.Err != nil {
		return cfg, r.Err
	}
	if cfg.threshold, err = lesson.Int(c, "threshold", max(1, (cfg.n+maxLeaves-1)/maxLeaves), maxN); err != nil {
		return cfg, fmt.Errorf("%w (fork-join makes at most %d leaves)", err, maxLeaves)
	}
	if err := racebuild.Check("--n/--threshold (fork-join goroutines)", LeafCount(cfg.n, cfg.threshold)); err != nil {
		return cfg, cliutil.Usagef("%v", err)
	}
	cfg.runs = r.Int("runs", 1, maxRuns)
	cfg.period = r.Duration("period", time.Millisecond, maxPeriod)
	cfg.work = r.Duration("work", 0, maxPeriod)
	return cfg, r.Err
}

func run(ctx context.Context, w io.Writer, cfg config) error {
	steps := []func(context.Context, io.Writer, config) error{
		runFutures, runInvokeAll, runInvokeAny, runForkJoin, runScheduled,
	}
	for _, step := range steps {
		if err := step(ctx, w, cfg); err != nil {
			return err
		}
	}
	return nil
}

func runFutures(ctx context.Context, w io.Writer, cfg config) error {
	p := New(cfg.workers, cfg.queue)
	futures := make([]*Future[int64], 0, cfg.tasks)
	var err error
	for i := range cfg.tasks {
		var f *Future[int64]
		if f, err = Submit(ctx, p, func() int64 { return SumRange(i*chunk, (i+1)*chunk) }); err != nil {
			break
		}
		futures = append(futures, f)
	}
	p.Close() // runs what was queued, then joins the workers
	if err != nil {
		return err
	}
	var total int64
	for _, f := range futures {
		v, err := f.Get(ctx)
		if err != nil {
			return err
		}
		total += v
	}
	want := gauss(cfg.tasks * chunk)
	fmt.Fprintf(w, "futures:     %d workers, queue of %d: submitted %d tasks (each sums %d numbers); the submitter found the queue full %d times and waited\n",
		cfg.workers, cfg.queue, cfg.tasks, chunk, p.Waits())
	fmt.Fprintf(w, "             sum of the futures' results = %d (expected %d) %s\n", total, want, verdict(total == want))
	return nil
}

func runInvokeAll(ctx context.Context, w io.Writer, cfg config) error {
	tasks := make([]Task[int64], 8)
	for i := range tasks {
		tasks[i] = func(context.Context) (int64, error) { return SumRange(0, (i+1)*chunk), nil }
	}
	res, err := InvokeAll(ctx, cfg.workers, tasks)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "invoke-all:  %d tasks, at most %d at once; results in submission order: %v\n", len(tasks), cfg.workers, res)
	return nil
}

// Replicas returns invoke-any tasks that answer "replica i" after latency[i],
// or stop early with ctx.Err() when cancelled.
func Replicas(latency []time.Duration) []Task[string] {
	tasks := make([]Task[string], len(latency))
	for i, d := range latency {
		tasks[i] = func(ctx context.Context) (string, error) {
			if err := sleep(ctx, d); err != nil {
				return "", err
			}
			return fmt.Sprintf("replica %d", i), nil
		}
	}
	return tasks
}

func runInvokeAny(ctx context.Context, w io.Writer, _ config) error {
	ms := time.Millisecond
	latency := []time.Duration{90 * ms, 30 * ms, 60 * ms, 120 * ms}
	start := time.Now()
	res, err := InvokeAny(ctx, Replicas(latency))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "invoke-any:  %d replicas answering after %v: %q won after %v; %d others were cancelled and joined\n",
		len(latency), latency, res.Value, time.Since(start).Round(time.Millisecond), res.Cancelled)
	return nil
}

func runForkJoin(_ context.Context, w io.Writer, cfg config) error {
	start := time.Now()
	total, leaves := ForkJoin(0, cfg.n, cfg.threshold, SumRange)
	forked := time.Since(start)
	start = time.Now()
	alone := SumRange(0, cfg.n)
	single := time.Since(start)
	want := gauss(cfg.n)
	fmt.Fprintf(w, "fork-join:   sum of 0..%d split in halves down to <= %d numbers: %d leaves; sum = %d (expected %d) %s\n",
		cfg.n-1, cfg.threshold, leaves, total, want, verdict(total == want && alone == want))
	fmt.Fprintf(w, "             fork-join took %v, one goroutine alone %v (measured; on %d CPUs)\n",
		forked.Round(time.Microsecond), single.Round(time.Microsecond), runtime.GOMAXPROCS(0))
	return nil
}

func runScheduled(ctx context.Context, w io.Writer, cfg config) error {
	task := func(ctx context.Context) { _ = sleep(ctx, cfg.work) }
	rate, err := FixedRate(ctx, cfg.period, cfg.runs, task)
	if err != nil {
		return err
	}
	delay, err := FixedDelay(ctx, cfg.period, cfg.runs, task)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "scheduled:   each run takes %v, period %v, %d runs (measured start times; they jitter a little)\n", cfg.work, cfg.period, cfg.runs)
	fmt.Fprintf(w, "  %-42s starts at %s\n", fmt.Sprintf("fixed rate (time.Ticker every %v):", cfg.period), offsets(rate))
	fmt.Fprintf(w, "  %-42s starts at %s\n", fmt.Sprintf("fixed delay (sleep %v after each run):", cfg.period), offsets(delay))
	return nil
}

// gauss is the sum of 0..n-1.
func gauss(n int) int64 { return int64(n) * int64(n-1) / 2 }

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "WRONG"
}

func offsets(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%dms", d.Round(time.Millisecond).Milliseconds())
	}
	return strings.Join(parts, " ")
}
