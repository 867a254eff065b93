// Package blockingqueue is the `blocking-queue` lesson of the concurrency
// chapter ("thread-safe structures: blocking queue"; "signalling:
// wait/notifyAll"): producers and consumers over a bounded queue built with
// sync.Cond, next to a buffered channel, and the wait/notify trap: with one
// shared cond and Signal (notify) instead of Broadcast (notifyAll), a wake-up
// can go to the wrong side and every goroutine ends up waiting (exit 4).
package blockingqueue

import (
	"context"
	"fmt"
	"sync"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lesson"
)

// Implementations, for --impl.
const (
	ImplCond     = "cond"      // one shared cond, Broadcast (or Signal with --notify-one)
	ImplTwoConds = "two-conds" // not-full and not-empty conds, Signal
	ImplChan     = "chan"      // a buffered channel
)

// Bounds of the count flags.
const (
	MaxGoroutines = 10_000
	MaxCapacity   = 1_000_000
	MaxItems      = 1_000_000
	MaxRounds     = 10_000
	MaxMoved      = 100_000_000 // producers × items × rounds
)

const explain = `
blocking-queue: --producers goroutines put --items numbers each into a bounded queue of
--capacity; --consumers goroutines take them out. A full queue makes producers wait, an empty
one makes consumers wait. The run checks that every item arrived exactly once.

  --impl cond       mutex + ONE sync.Cond shared by both sides, woken with Broadcast (Java's
                    notifyAll). Correct: everybody wakes, re-checks its condition in a loop,
                    and whoever cannot go on sleeps again.
  --impl two-conds  one cond for "not full" and one for "not empty", woken with Signal: each
                    side only ever wakes the other side. Correct and cheaper.
  --impl chan       a buffered channel IS a bounded blocking queue; close() ends the stream.

  --notify-one      (with cond) the trap from the chapter and from the TLA+ model: one shared
                    cond and Signal (notify). Signal wakes ONE waiter, and it may be on the
                    wrong side: a consumer's "there is room now" wakes the other consumer
                    instead of a producer; it finds the queue empty and sleeps again, and the
                    wake-up is lost. After a few of those, all producers and consumers sleep and
                    nobody is left to wake anyone: a deadlock (exit 4).

How it is detected: the queue counts who sleeps on which cond, minus the wake-ups already sent.
When every goroutine still running is asleep and no wake-up is on its way, nobody can ever wake
anyone: that is checked exactly, under the queue's lock, with no timeout.

Is it guaranteed? No: whether a Signal hits the wrong side depends on the order the scheduler
runs the goroutines in. With capacity 1, two of each and 1000 items it happens in more than half
of the rounds on an ordinary machine; the run repeats up to --rounds rounds and stops at the first
deadlock. If all rounds pass, it says so (exit 0) and you may raise --rounds.
`

// Config is one run of the lesson.
type Config struct {
	Impl                 string
	NotifyOne            bool
	Producers, Consumers int
	Capacity, Items      int // items per producer
	Rounds               int
}

// Result is one round's outcome.
type Result struct {
	Taken       []int  // items each consumer took
	Sum         int64  // sum of the items taken
	Deadlock    string // the queue's state if it deadlocked
	Interrupted bool   // ctx ended before every item was taken
}

// Command returns the `exercises blocking-queue` command.
func Command() *cli.Command {
	return lesson.Command(&cli.Command{
		Name:  "blocking-queue",
		Usage: "producers and consumers over a bounded queue: sync.Cond, a channel, and the notify trap",
		UsageText: "ringlab exercises blocking-queue [--impl cond|two-conds|chan] [--notify-one] [--producers 2] [--consumers 2] [--capacity 1] [--items 1000] [--rounds N] [--explain]\n\n" +
			"Example (the wait/notify trap, exit 4):\n   ringlab exercises blocking-queue --notify-one",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "impl", Value: ImplCond, Usage: "cond (one cond, Broadcast), two-conds (Signal) or chan"},
			&cli.BoolFlag{Name: "notify-one", Usage: "with --impl cond: Signal instead of Broadcast (the trap)"},
			&cli.IntFlag{Name: "producers", Value: 2, Usage: fmt.Sprintf("producer goroutines (1..%d)", MaxGoroutines)},
			&cli.IntFlag{Name: "consumers", Value: 2, Usage: fmt.Sprintf("consumer goroutines (1..%d)", MaxGoroutines)},
			&cli.IntFlag{Name: "capacity", Value: 1, Usage: fmt.Sprintf("queue capacity (1..%d)", MaxCapacity)},
			&cli.IntFlag{Name: "items", Value: 1000, Usage: fmt.Sprintf("items each producer puts (1..%d)", MaxItems)},
			&cli.IntFlag{Name: "rounds", Value: 1, Usage: fmt.Sprintf("repeat the run up to this many times, stopping at a deadlock (1..%d; default 1, or 100 with --notify-one)", MaxRounds)},
		},
	}, explain, action)
}

func action(c *cli.Context) error {
	cfg, err := config(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "%s: %d producer(s) × %d items, %d consumer(s), capacity %d\n", describe(cfg), cfg.Producers, cfg.Items, cfg.Consumers, cfg.Capacity)
	want := expectedSum(cfg)
	for round := 1; round <= cfg.Rounds; round++ {
		res := Run(c.Context, cfg)
		if res.Interrupted {
			taken := 0
			for _, n := range res.Taken {
				taken += n
			}
			fmt.Fprintf(c.App.Writer, "interrupted in round %d: %d of %d items taken; taken per consumer %v\n", round, taken, cfg.Producers*cfg.Items, res.Taken)
			return c.Context.Err()
		}
		if res.Deadlock != "" {
			fmt.Fprintf(c.App.Writer, "round %d: deadlock: %s\n", round, res.Deadlock)
			return cliutil.NoTerminationf("blocking-queue: every producer and consumer is waiting on the cond (round %d): a Signal woke the wrong side. Fix: drop --notify-one (Broadcast) or use --impl two-conds", round)
		}
		if res.Sum != want {
			return cliutil.Violationf("round %d: items taken sum to %d, want %d: an item was lost or taken twice", round, res.Sum, want)
		}
		if round == 1 || round == cfg.Rounds {
			fmt.Fprintf(c.App.Writer, "round %d: moved %d items, each exactly once; taken per consumer %v\n", round, cfg.Producers*cfg.Items, res.Taken)
		}
	}
	if cfg.NotifyOne {
		fmt.Fprintf(c.App.Writer, "no deadlock in %d rounds: the trap depends on the schedule; try more --rounds\n", cfg.Rounds)
	}
	return nil
}

func config(c *cli.Context) (Config, error) {
	cfg := Config{NotifyOne: c.Bool("notify-one")}
	var err error
	if cfg.Impl, err = lesson.OneOf(c, "impl", ImplCond, ImplTwoConds, ImplChan); err != nil {
		return cfg, err
	}
	if cfg.NotifyOne && cfg.Impl != ImplCond {
		return cfg, cliutil.Usagef("--notify-one only applies to --impl cond (one shared cond), not %s", cfg.Impl)
	}
	for _, f := range []struct {
		name    string
		dst     *int
		max     int
		counted bool // a goroutine count: racebuild applies
	}{
		{"producers", &cfg.Producers, MaxGoroutines, true},
		{"consumers", &cfg.Consumers, MaxGoroutines, true},
		{"capacity", &cfg.Capacity, MaxCapacity, false},
		{"items", &cfg.Items, MaxItems, false},
		{"rounds", &cfg.Rounds, MaxRounds, false},
	} {
		read := lesson.Int
		if f.counted {
			read = lesson.Goroutines
		}
		if *f.dst, err = read(c, f.name, 1, f.max); err != nil {
			return cfg, err
		}
	}
	if cfg.NotifyOne && !c.IsSet("rounds") {
		cfg.Rounds = 100
	}
	if moved := cfg.Producers * cfg.Items * cfg.Rounds; moved > MaxMoved {
		return cfg, cliutil.Usagef("--producers × --items × --rounds must be at most %d, got %d", MaxMoved, moved)
	}
	return cfg, nil
}

func describe(cfg Config) string {
	switch {
	case cfg.Impl == ImplChan:
		return "buffered channel"
	case cfg.Impl == ImplTwoConds:
		return "two conds (not full, not empty), Signal"
	case cfg.NotifyOne:
		return "one shared cond, Signal (notify): the trap"
	}
	return "one shared cond, Broadcast (notifyAll)"
}

// expectedSum is the sum of every item: producer p puts p*items+1 ... p*items+items.
func expectedSum(cfg Config) int64 {
	n := int64(cfg.Producers) * int64(cfg.Items)
	return n * (n + 1) / 2
}

// Queue is what the producers and consumers use.
type Queue interface {
	Put(v int) error
	Take() (v int, ok bool, err error)
	ProducerDone() // this producer put all its items (or gave up)
	ConsumerDone() // this consumer saw the end of the stream (or gave up)
}

// Run moves every item once through a fresh queue, joins every goroutine and
// returns what the consumers took. Once ctx is done every Put and Take gives
// up, and the result is Interrupted unless every item was taken already.
func Run(ctx context.Context, cfg Config) Result {
	total := cfg.Producers * cfg.Items
	var q Queue
	var cq *CondQueue
	if cfg.Impl == ImplChan {
		q = newChanQueue(ctx, cfg.Capacity, cfg.Producers)
	} else {
		shared := cfg.Impl == ImplCond
		cq = NewCondQueue(cfg.Capacity, cfg.Producers, cfg.Consumers, total, shared, !cfg.NotifyOne)
		q = cq
		if ctx.Err() != nil {
			cq.Interrupt()
		}
		defer context.AfterFunc(ctx, cq.Interrupt)()
	}
	res := Result{Taken: make([]int, cfg.Consumers)}
	sums := make([]int64, cfg.Consumers) // indexed slots: no lock needed
	var wg sync.WaitGroup
	for p := range cfg.Producers {
		wg.Go(func() {
			defer q.ProducerDone()
			for k := 1; k <= cfg.Items; k++ {
				if q.Put(p*cfg.Items+k) != nil {
					return
				}
			}
		})
	}
	for i := range cfg.Consumers {
		wg.Go(func() {
			defer q.ConsumerDone()
			for {
				v, ok, err := q.Take()
				if !ok || err != nil {
					return
				}
				res.Taken[i]++
				sums[i] += int64(v)
			}
		})
	}
	wg.Wait()
	for _, s := range sums {
		res.Sum += s
	}
	if cq != nil {
		res.Deadlock = cq.Report()
	}
	taken := 0
	for _, n := range res.Taken {
		taken += n
	}
	res.Interrupted = ctx.Err() != nil && taken < total
	return res
}

// chanQueue is a buffered channel seen as a Queue; the last producer's Done
// closes it.
type chanQueue struct {
	ctx       context.Context
	ch        chan int
	mu        sync.Mutex
	producers int
}

func newChanQueue(ctx context.Context, capacity, producers int) *chanQueue {
	return &chanQueue{ctx: ctx, ch: make(chan int, capacity), producers: producers}
}

func (q *chanQueue) Put(v int) error {
	select {
	case q.ch <- v:
		return nil
	case <-q.ctx.Done():
		return q.ctx.Err()
	}
}

func (q *chanQueue) Take() (int, bool, error) {
	v, ok := <-q.ch // ends when the last producer closes ch
	return v, ok, nil
}

// ProducerDone closes the channel after the last producer.
func (q *chanQueue) ProducerDone() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.producers--; q.producers == 0 {
		close(q.ch)
	}
}

// ConsumerDone implements Queue; a channel needs no word from consumers.
func (q *chanQueue) ConsumerDone() {}
