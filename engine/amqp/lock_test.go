package amqp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ringlab/engine/internal/nodetest"
)

// holdLock holds the node lock of node i of cfg's run on a connection of
// the test's own, as a killed process of that node does until the broker
// notices it is gone; release ends the hold.
func holdLock(t *testing.T, cfg config, i int) (release func()) {
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

// muted wraps the connections a run dials so that a test can cut them on
// the client's side only: the run sees its connections fail, while the
// broker keeps them, and what they hold (exclusive queues, consumers),
// until the test closes their sockets, as when a network fails silently
// and the broker notices only by missed heartbeats.
type muted struct {
	mu    sync.Mutex
	conns []*mutedConn
}

type mutedConn struct {
	net.Conn
	dead atomic.Bool
}

func (c *mutedConn) Read(b []byte) (int, error) {
	if c.dead.Load() {
		return 0, net.ErrClosed
	}
	return c.Conn.Read(b)
}

func (c *mutedConn) Write(b []byte) (int, error) {
	if c.dead.Load() {
		return 0, net.ErrClosed
	}
	return c.Conn.Write(b)
}

// Close leaves a muted connection's socket to release.
func (c *mutedConn) Close() error {
	if c.dead.Load() {
		return nil
	}
	return c.Conn.Close()
}

func (m *muted) wrap(c net.Conn) net.Conn {
	mc := &mutedConn{Conn: c}
	m.mu.Lock()
	m.conns = append(m.conns, mc)
	m.mu.Unlock()
	return mc
}

// mute cuts every connection so far on the client's side: a read blocked
// on one returns at once (its deadline is past).
func (m *muted) mute() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.conns {
		c.dead.Store(true)
		_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
	}
}

// release closes the sockets of the muted connections: the broker sees
// them go.
func (m *muted) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.conns {
		if c.dead.Load() {
			_ = c.Conn.Close()
		}
	}
}

// A run whose connections are lost while the broker still has them meets
// its own lost holds when it reconnects: its lock queue (Lock) and its
// nodes' consumers. It waits for them instead of failing; here the test
// closes the lost connections' sockets once the run says it waits. The
// run ends with the simulator's count.
func TestReconnectWaitsForItsOwnLostHolds(t *testing.T) {
	for _, lock := range []bool{true, false} {
		t.Run(fmt.Sprintf("lock=%v", lock), func(t *testing.T) {
			f := nodetest.PassFactory(3, 7)
			var m muted
			var once sync.Once
			waiting, wait := signal()
			cfg := config{Codec: testCodec(), Nodes: 3, Factory: f, Script: start1(), Lock: lock, wrap: m.wrap,
				lockWaiting: func() { wait(); m.release() },
				afterSends: func(i, from int, _ int64) {
					if i == 2 && from > 0 {
						once.Do(m.mute)
					}
				}}
			res := oneProcess(t, cfg)
			select {
			case <-waiting:
			default:
				t.Error("the run did not wait for its lost holds")
			}
			if want := simCount(t, 3, f, start1()); res.Messages != want || res.Reconnects < 1 {
				t.Errorf("%d messages, %d reconnects: want the simulator's %d after a reconnect", res.Messages, res.Reconnects, want)
			}
		})
	}
}
