// Package pool is the `pool` lesson of the concurrency chapter
// ("executors"): the Java executor toolbox written with goroutines.
//
//   - Pool (this file): a fixed number of workers fed by a bounded queue.
//     Execute queues a task and returns (Java's execute); Submit also returns
//     a Future, a result channel per task (Java's submit). When the queue is
//     full the submitter waits: the queue is the pool's back-pressure.
//   - InvokeAll and InvokeAny (invoke.go): run a batch and keep every result,
//     or keep the first success and cancel the rest (errgroup).
//   - ForkJoin (forkjoin.go): split the work in halves until a piece is small
//     enough, run the halves in parallel, join the partial results.
//   - FixedRate and FixedDelay (schedule.go): scheduled work with a
//     time.Ticker (start every period) versus sleeping after each run.
//
// The tests check the sums, that invoke-any returns the first answer and
// cancels the others, and the exact start times of scheduled runs under
// testing/synctest.
package pool

import (
	"context"
	"sync"
	"sync/atomic"
)

// Pool is a fixed set of worker goroutines that run tasks taken from a
// bounded queue. Execute and Submit may be called from many goroutines;
// Close must be called exactly once, after the last Execute or Submit has
// returned, and it waits for every worker. A Pool must not be copied.
type Pool struct {
	queue   chan func()
	workers sync.WaitGroup
	waits   atomic.Int64 // submissions that found the queue full
}

// New starts workers goroutines reading from a queue of the given capacity.
func New(workers, queue int) *Pool {
	p := &Pool{queue: make(chan func(), queue)}
	for range workers {
		p.workers.Go(func() {
			for task := range p.queue {
				task()
			}
		})
	}
	return p
}

// Execute queues task. When the queue is full it waits for a free slot, or
// until ctx is done.
func (p *Pool) Execute(ctx context.Context, task func()) error {
	select {
	case p.queue <- task:
		return nil
	default: // full: count the wait, then block
	}
	p.waits.Add(1)
	select {
	case p.queue <- task:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Waits reports how many submissions so far found the queue full and waited.
func (p *Pool) Waits() int { return int(p.waits.Load()) }

// Close stops accepting work, lets the workers finish the queue, and waits
// for them.
func (p *Pool) Close() {
	close(p.queue)
	p.workers.Wait()
}

// Future is the pending result of a submitted task. Get may be called any
// number of times, from any goroutine.
type Future[T any] struct {
	done  chan struct{}
	value T
}

// Get waits for the result, or until ctx is done.
func (f *Future[T]) Get(ctx context.Context) (T, error) {
	select {
	case <-f.done:
		return f.value, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// Submit queues task on p and returns its Future.
func Submit[T any](ctx context.Context, p *Pool, task func() T) (*Future[T], error) {
	f := &Future[T]{done: make(chan struct{})}
	err := p.Execute(ctx, func() {
		f.value = task()
		close(f.done)
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}
