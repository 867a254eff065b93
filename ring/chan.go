package ring

import (
	"context"
	"sync"
)

// runChan is the idiomatic ring: goroutine i owns inbox i and sends to inbox
// i+1. Each inbox has room for one token and exactly one token exists, so a
// send can never block; only receives wait, and they also watch ctx.
func runChan(ctx context.Context, cfg Config, onHop func(Hop)) ([]rune, error) {
	n := cfg.Nodes
	inbox := make([]chan *token, n)
	for i := range inbox {
		inbox[i] = make(chan *token, 1)
	}
	done := make(chan *token, 1)

	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			in, out := inbox[i], inbox[(i+1)%n]
			for {
				var t *token
				select {
				case t = <-in:
				case <-ctx.Done():
					return
				}
				changed, finished, last := t.visit(i, n, onHop)
				if changed >= 0 && !pause(ctx, cfg.Delay) {
					return
				}
				if last {
					done <- t // room for one; sent once per run
					return
				}
				out <- t // never blocks: the token is the only value in flight
				if finished {
					return
				}
			}
		}()
	}
	inbox[0] <- newToken(cfg.Message)

	var final *token
	select {
	case final = <-done:
	case <-ctx.Done():
	}
	wg.Wait()
	if final == nil {
		return nil, ctx.Err()
	}
	return final.text, nil
}
