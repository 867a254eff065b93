package amqp

import (
	"context"
	"sync"
	"testing"
	"time"

	"ringlab/internal/node"
	"ringlab/internal/nodetest"
)

// proc is one simulated node process: a Run with one local node.
type proc struct {
	res    Result
	err    error
	cancel context.CancelFunc
	done   chan struct{}
}

func startProc(ctx context.Context, cfg Config, i int, watch bool) *proc {
	ctx, cancel := context.WithCancel(ctx)
	p := &proc{cancel: cancel, done: make(chan struct{})}
	cfg.Local, cfg.Watch = []int{i}, watch
	go func() {
		defer close(p.done)
		p.res, p.err = Run(ctx, cfg)
	}()
	return p
}

func (p *proc) wait() { <-p.done; p.cancel() }

// multiConfig is a run of n node processes on fresh names, set up as
// `ringlab amqp setup` does.
func multiConfig(t *testing.T, n int, f node.Factory) Config {
	t.Helper()
	url := brokerURL(t)
	names, _ := testNames(t)
	if err := Setup(t.Context(), url, names, n); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := Teardown(context.Background(), url, names, n); err != nil {
			t.Error(err)
		}
	})
	return Config{URL: url, Names: names, Nodes: n, Factory: f, Script: start1(), Timeout: time.Minute,
		Codec: NewCodec(nodetest.Token{})} // a node process learns its types first (ringlab node runs the simulator)
}

// Node 1's process starts and sends before the others exist: its message
// waits in node 2's queue, and the run ends with every message counted.
func TestNodeStartingAfterThePublishGetsTheMessage(t *testing.T) {
	f := nodetest.PassFactory(3, 7)
	cfg := multiConfig(t, 3, f)
	published := make(chan struct{})
	var once sync.Once
	c1 := cfg
	c1.afterSends = func(i, from int, _ int64) {
		if from == 0 {
			once.Do(func() { close(published) })
		}
	}
	p1 := startProc(t.Context(), c1, 1, true)
	select {
	case <-published:
	case <-p1.done:
		t.Fatalf("node 1 ended before publishing: %v", p1.err)
	}
	p2 := startProc(t.Context(), cfg, 2, false)
	p3 := startProc(t.Context(), cfg, 3, false)
	for _, p := range []*proc{p1, p2, p3} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("a process ended with %v, quiescent %v", p.err, p.res.Quiescent)
		}
	}
	if want := simCount(t, 3, f, start1()); p1.res.Messages != want {
		t.Errorf("the watcher counted %d messages, the simulator sends %d", p1.res.Messages, want)
	}
}

// Node 2's process dies after sending on what it handled and before
// acknowledging it; a new process of node 2 gets the message again, sends
// the same message again (same link, same sequence number: node 3 drops
// it), and the run ends with the simulator's count.
func TestKilledNodeProcessResumes(t *testing.T) {
	f := nodetest.PassFactory(3, 7)
	cfg := multiConfig(t, 3, f)
	killed := make(chan struct{})
	var once sync.Once
	var p2 *proc
	var mu sync.Mutex
	c2 := cfg
	c2.afterSends = func(i, from int, _ int64) {
		if from > 0 {
			once.Do(func() {
				mu.Lock()
				p2.cancel() // the process dies here: no state saved, no ack
				mu.Unlock()
				close(killed)
			})
		}
	}
	p1 := startProc(t.Context(), cfg, 1, true)
	p3 := startProc(t.Context(), cfg, 3, false)
	mu.Lock()
	p2 = startProc(t.Context(), c2, 2, false)
	mu.Unlock()
	select {
	case <-killed:
	case <-p2.done:
		t.Fatalf("node 2's process ended before the kill: %v", p2.err)
	}
	p2.wait()
	if p2.res.Quiescent {
		t.Fatal("the killed process says the run is over")
	}
	again := startProc(t.Context(), cfg, 2, false)
	for _, p := range []*proc{p1, p3, again} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("a process ended with %v, quiescent %v", p.err, p.res.Quiescent)
		}
	}
	if want := simCount(t, 3, f, start1()); p1.res.Messages != want {
		t.Errorf("the watcher counted %d messages, the simulator sends %d", p1.res.Messages, want)
	}
	if p3.res.Duplicates < 1 {
		t.Errorf("node 3 dropped %d duplicates, want the resent message dropped", p3.res.Duplicates)
	}
}
