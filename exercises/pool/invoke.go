package pool

import (
	"context"
	"errors"

	"golang.org/x/sync/errgroup"
)

// Task is a unit of work for InvokeAll and InvokeAny. It must return
// promptly with ctx.Err() once ctx is done.
type Task[T any] func(ctx context.Context) (T, error)

// InvokeAll runs every task, at most limit at once, and returns the results
// in task order (each goroutine writes its own slot, so the order does not
// depend on who finishes first). The first error cancels the others and is
// returned.
func InvokeAll[T any](ctx context.Context, limit int, tasks []Task[T]) ([]T, error) {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	results := make([]T, len(tasks))
	for i, task := range tasks {
		g.Go(func() error {
			v, err := task(ctx)
			results[i] = v
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return results, nil
}

// AnyResult is what InvokeAny returns: the first successful value, the index
// of the task that produced it, and how many other tasks stopped because
// they were cancelled.
type AnyResult[T any] struct {
	Value     T
	Winner    int
	Cancelled int
}

// InvokeAny runs every task at once and returns the first success. As soon
// as one task succeeds the others are cancelled; InvokeAny still waits for
// all of them to return, so no goroutine outlives the call. If every task
// fails, it returns their errors joined.
func InvokeAny[T any](ctx context.Context, tasks []Task[T]) (AnyResult[T], error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type win struct {
		i int
		v T
	}
	first := make(chan win, 1) // holds the winner; later successes are dropped
	errs := make([]error, len(tasks))
	var g errgroup.Group // no shared ctx: a failure must not cancel the rest
	for i, task := range tasks {
		g.Go(func() error {
			v, err := task(ctx)
			if err != nil {
				errs[i] = err
				return nil
			}
			select {
			case first <- win{i, v}:
				cancel()
			default:
			}
			return nil
		})
	}
	_ = g.Wait() // the goroutines report through first and errs
	select {
	case w := <-first:
		res := AnyResult[T]{Value: w.v, Winner: w.i}
		for _, err := range errs {
			if errors.Is(err, context.Canceled) {
				res.Cancelled++
			}
		}
		return res, nil
	default:
		var zero AnyResult[T]
		return zero, errors.Join(errs...)
	}
}
