package ring

import (
	"context"
	"sync"
)

// condRing is the shared slot of the cond implementation: the token and
// whose turn it is, guarded by mu. Each goroutine waits on its own condition
// variable (all built on mu), so handing over the turn signals exactly one
// waiter instead of waking the whole ring with Broadcast.
type condRing struct {
	mu       sync.Mutex
	wake     []*sync.Cond // wake[i] is signalled when turn becomes i
	turn     int          // the goroutine that may take the token; -1 when done
	tok      *token
	finished bool // the last goroutine of the final lap has handed back
	stopped  bool // ctx was cancelled
	doneCond *sync.Cond
}

func runCond(ctx context.Context, cfg Config, onHop func(Hop)) (*token, error) {
	n := cfg.Nodes
	r := &condRing{wake: make([]*sync.Cond, n), tok: newToken(cfg.Message)}
	for i := range r.wake {
		r.wake[i] = sync.NewCond(&r.mu)
	}
	r.doneCond = sync.NewCond(&r.mu)
	stopWatch := context.AfterFunc(ctx, func() {
		r.mu.Lock()
		r.stopped = true
		for _, c := range r.wake {
			c.Broadcast()
		}
		r.doneCond.Broadcast()
		r.mu.Unlock()
	})
	defer stopWatch()

	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			r.node(ctx, i, n, cfg, onHop)
		}()
	}

	r.mu.Lock()
	for !r.finished && !r.stopped {
		r.doneCond.Wait()
	}
	ok := r.finished
	r.mu.Unlock()
	wg.Wait()
	if !ok {
		return r.tok, ctx.Err()
	}
	return r.tok, nil
}

func (r *condRing) node(ctx context.Context, i, n int, cfg Config, onHop func(Hop)) {
	for {
		r.mu.Lock()
		for r.turn != i && !r.stopped {
			r.wake[i].Wait()
		}
		if r.stopped {
			r.mu.Unlock()
			return
		}
		changed, finished, last := r.tok.visit(i, n, onHop)
		r.mu.Unlock()

		// Wait outside the lock: the turn is still ours, so nobody else
		// touches the token, and cancellation can still take the lock.
		if changed >= 0 && !pause(ctx, cfg.Delay) {
			return
		}

		r.mu.Lock()
		if last {
			r.turn = -1
			r.finished = true
			r.doneCond.Signal()
		} else {
			r.turn = (i + 1) % n
			r.wake[r.turn].Signal()
		}
		r.mu.Unlock()
		if finished {
			return
		}
	}
}
