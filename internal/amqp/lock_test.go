package amqp

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"ringlab/internal/nodetest"
)

// holdLock holds the node lock of node i of cfg's run on a connection of
// the test's own, as a killed process of that node does until the broker
// notices it is gone; release ends the hold.
func holdLock(t *testing.T, cfg Config, i int) (release func()) {
	t.Helper()
	c, err := dial(t.Context(), cfg.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := hold(c, cfg.Names, []string{cfg.Names.NodeLock(i)}); err != nil {
		_ = c.Close()
		t.Fatal(err)
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = c.Close() }) }
	t.Cleanup(release)
	return release
}

// signal is a channel closed by the first call of its func.
func signal() (chan struct{}, func()) {
	ch := make(chan struct{})
	var once sync.Once
	return ch, func() { once.Do(func() { close(ch) }) }
}

// A node process whose node lock is taken while the names are its own
// run's (a process of that node killed a moment ago, which the broker has
// not noticed yet) waits for it, and runs once it is free: here the test
// holds the lock, and frees it once the process says it waits.
func TestNodeProcessWaitsForItsLock(t *testing.T) {
	f := nodetest.PassFactory(2, 3)
	cfg := multiConfig(t, 2, f)
	cfg.Lock, cfg.RunKey = true, "pass, 2 nodes"
	release := holdLock(t, cfg, 2)
	waiting, wait := signal()
	c2 := cfg
	c2.lockWaiting = wait
	p1 := startProc(t.Context(), cfg, 1, true)
	p2 := startProc(t.Context(), c2, 2, false)
	select {
	case <-waiting:
	case <-p2.done:
		t.Fatalf("node 2's process ended without waiting for its lock: %v", p2.err)
	}
	release()
	for i, p := range []*proc{p1, p2} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("node %d's process ended with %v, quiescent %v", i+1, p.err, p.res.Quiescent)
		}
	}
	if p1.res.Messages != 3 {
		t.Errorf("the watcher counted %d messages, want 3", p1.res.Messages)
	}
}

// Cancelling a node process that waits for its lock ends the wait at
// once: its error is the context's, not ErrHeld (the wait would last ten
// minutes here, and the lock stays held).
func TestNodeProcessWaitingForItsLockIsInterrupted(t *testing.T) {
	f := nodetest.PassFactory(2, 3)
	cfg := multiConfig(t, 2, f)
	cfg.Lock, cfg.RunKey = true, "pass, 2 nodes"
	holdLock(t, cfg, 2)
	waiting, wait := signal()
	cfg.lockWaiting, cfg.lockWait = wait, 10*time.Minute
	p := startProc(t.Context(), cfg, 2, false)
	select {
	case <-waiting:
	case <-p.done:
		t.Fatalf("node 2's process ended without waiting for its lock: %v", p.err)
	}
	p.cancel()
	select {
	case <-p.done:
	case <-time.After(30 * time.Second): // a bound on a hang, not a synchronisation
		t.Fatal("the cancelled process still waits for its lock")
	}
	if !errors.Is(p.err, context.Canceled) || p.res.Steps != 0 {
		t.Errorf("the cancelled process: %v after %d steps, want context.Canceled before any", p.err, p.res.Steps)
	}
}
