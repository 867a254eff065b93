package ring

// QUARANTINE: this file is a data race on purpose. It is the version students
// write first — a shared string and a turn variable, no synchronization, every
// goroutine polling — and it exists so that the race detector has something
// real to report (see the README, "Reading a race report"). Its test runs it
// in a subprocess built with -race. Do not copy it.

import (
	"context"
	"runtime"
	"sync"
)

// racyRing is shared by all goroutines with no lock and no channel.
type racyRing struct {
	turn    int    // whose turn it is; -1 when the run is over
	message string // the message in flight
	hop     int
	changes int
	final   int // which goroutine finished the message
}

func runRacy(ctx context.Context, cfg Config, onHop func(Hop)) (*token, error) {
	n := cfg.Nodes
	r := &racyRing{message: cfg.Message, final: -1}
	var wg sync.WaitGroup // joining is done properly; the data are not
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			r.node(ctx, i, n, cfg, onHop)
		}()
	}
	wg.Wait()
	t := &token{text: []rune(r.message), hop: r.hop, changes: r.changes}
	if err := ctx.Err(); err != nil && r.turn != -1 {
		return t, err
	}
	return t, nil
}

func (r *racyRing) node(ctx context.Context, i, n int, cfg Config, onHop func(Hop)) {
	for {
		for r.turn != i { // RACE: read while the previous goroutine writes
			if r.turn == -1 || ctx.Err() != nil {
				return
			}
			runtime.Gosched()
		}
		t := newToken(r.message) // RACE: read of the shared message
		t.hop, t.changes, t.finisher = r.hop, r.changes, r.final
		changed, finished, last := t.visit(i, n, onHop)
		if changed >= 0 && !pause(ctx, cfg.Delay) {
			return
		}
		r.message, r.hop, r.changes, r.final = string(t.text), t.hop, t.changes, t.finisher // RACE: writes
		if last {
			r.turn = -1
			return
		}
		r.turn = (i + 1) % n // RACE: the hand-over nobody orders
		if finished {
			return
		}
	}
}
