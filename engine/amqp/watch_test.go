package amqp

import (
	"errors"
	"testing"
	"time"

	"ringlab/engine/internal/nodetest"
)

// A run has one watcher. A second one is refused before its node acts
// (ErrSecondWatcher), and the run's processes end with ErrAbandoned
// instead of waiting for that node.
func TestSecondWatcherIsRefusedAndTheRunIsAbandoned(t *testing.T) {
	f := nodetest.PassFactory(3, 7)
	cfg := multiConfig(t, 3, f)
	cfg.Script = nil // nobody starts: the run can only end by the refusal
	started := func() (config, chan struct{}) {
		c, ch := cfg, make(chan struct{})
		c.Started = func() { close(ch) }
		return c, ch
	}
	c1, s1 := started()
	p1 := startProc(t.Context(), c1, 1, true)
	c2, s2 := started()
	p2 := startProc(t.Context(), c2, 2, false)
	for _, s := range []chan struct{}{s1, s2} {
		select {
		case <-s: // the watcher holds its role; the other process listens for the end
		case <-time.After(30 * time.Second): // a bound on a hang, not a synchronisation
			t.Fatal("a process did not start")
		}
	}
	c3 := cfg
	c3.Started = func() { t.Error("the second watcher started its node") }
	p3 := startProc(t.Context(), c3, 3, true)
	p3.wait()
	if !errors.Is(p3.err, ErrSecondWatcher) || p3.res.Steps != 0 {
		t.Errorf("the second watcher: %v after %d steps, want ErrSecondWatcher before any", p3.err, p3.res.Steps)
	}
	for i, p := range []*proc{p1, p2} {
		p.wait()
		if !errors.Is(p.err, ErrAbandoned) {
			t.Errorf("node %d's process ended with %v, want ErrAbandoned", i+1, p.err)
		}
	}
}
