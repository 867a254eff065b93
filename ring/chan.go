package ring

import (
	"context"
	"sync"
	"sync/atomic"
)

// runChan is the idiomatic ring: goroutine i owns inbox i and sends to inbox
// i+1. Exactly one token exists, so a send never blocks: every inbox has room
// for the token and for one nil "stop" value. On cancellation Run drops a
// stop value into every inbox; a goroutine that receives it returns. That
// keeps the hot path a plain receive and a plain send — no select — which
// is what lets this ring keep up with a bare hand-written one. The stopped
// flag, set before the stop values go out, keeps a goroutine that still
// gets the token after the cancellation from counting one more hop.
func runChan(ctx context.Context, cfg Config, onHop func(Hop)) (*token, error) {
	n := cfg.Nodes
	inbox := make([]chan *token, n)
	for i := range inbox {
		inbox[i] = make(chan *token, 2) // the token + one stop value
	}
	done := make(chan struct{})
	var stopped atomic.Bool

	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			in, out := inbox[i], inbox[(i+1)%n]
			for {
				t := <-in
				if t == nil || stopped.Load() {
					return // stopped; Run keeps its own pointer to the token
				}
				changed, finished, last := t.visit(i, n, onHop)
				if changed >= 0 && !pause(ctx, cfg.Delay) {
					return
				}
				if last {
					close(done)
					return
				}
				out <- t // never blocks: see above
				if finished {
					return
				}
			}
		}()
	}
	tok := newToken(cfg.Message)
	inbox[0] <- tok

	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
		stopped.Store(true)
		for _, in := range inbox {
			in <- nil // room guaranteed: at most the token is queued
		}
	}
	wg.Wait()
	return tok, err
}
