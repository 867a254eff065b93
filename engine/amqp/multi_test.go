package amqp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// proc is one simulated node process: a Run with one local node.
type proc struct {
	res    result
	err    error
	cancel context.CancelFunc
	done   chan struct{}
}

func startProc(ctx context.Context, cfg config, i int, watch bool) *proc {
	ctx, cancel := context.WithCancel(ctx)
	p := &proc{cancel: cancel, done: make(chan struct{})}
	cfg.Local, cfg.Watch = []int{i}, watch
	go func() {
		defer close(p.done)
		p.res, p.err = run(ctx, cfg)
	}()
	return p
}

func (p *proc) wait() { <-p.done; p.cancel() }

// multiConfig is a run of n node processes on fresh names, set up as
// `ringlab amqp setup` does.
func multiConfig(t *testing.T, n int, f node.Factory) config {
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
	return config{URL: url, Names: names, Nodes: n, Factory: f, Script: start1(), Timeout: time.Minute,
		Codec: testCodec()}
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

// Every connection of a five-process run dies at once, at a point of the
// run chosen by its progress (the k-th message the watcher learns of), as
// `rabbitmqctl close_all_connections` does it; the run reconnects, and the
// watcher must see every event exactly once, every message counted once.
// Several runs, each cut at another point.
func TestAllConnectionsDroppedMidRun(t *testing.T) {
	const n, hops, runs = 5, 120, 6
	f := nodetest.PassFactory(n, hops)
	want := simCount(t, n, f, start1())
	for r := range runs {
		cut := 1 + (r+1)*hops/(runs+1) // the k-th handled message triggers the cut
		t.Run(fmt.Sprintf("cut=%d", cut), func(t *testing.T) {
			cfg := multiConfig(t, n, f)
			var sev severable
			cfg.wrap = sev.wrap
			var mu sync.Mutex
			seen := map[[2]int64]int{} // (node, lc) -> times the watcher saw the event
			recvs := 0
			cw := cfg
			cw.Sink = func(e *trace.Event) {
				mu.Lock()
				defer mu.Unlock()
				seen[[2]int64{int64(e.Node), e.LC}]++
				if e.Kind == trace.KindRecv {
					recvs++
					if recvs == cut {
						sev.sever() // every process's connection, as the broker closing them all
					}
				}
			}
			cw.Messages = true
			cfg.Messages = true
			procs := []*proc{startProc(t.Context(), cw, 1, true)}
			for i := 2; i <= n; i++ {
				procs = append(procs, startProc(t.Context(), cfg, i, false))
			}
			reconnects := 0
			for k, p := range procs {
				p.wait()
				if p.err != nil || !p.res.Quiescent {
					t.Fatalf("node %d's process ended with %v, quiescent %v", k+1, p.err, p.res.Quiescent)
				}
				reconnects += p.res.Reconnects
			}
			if reconnects == 0 {
				t.Fatal("no process reconnected: the cut did not happen")
			}
			if got := procs[0].res.Messages; got != want {
				t.Errorf("the watcher counted %d messages, the simulator sends %d", got, want)
			}
			mu.Lock()
			defer mu.Unlock()
			for k, c := range seen {
				if c > 1 {
					t.Errorf("the watcher saw event lc=%d of node %d %d times", k[1], k[0], c)
				}
			}
			if recvs != int(want) {
				t.Errorf("the watcher saw %d receipts, the simulator has %d", recvs, want)
			}
		})
	}
}

// A process that was not listening when the watcher announced the end
// (here: started after it) finds the end in the end queue and ends, with
// no message of its own sent.
func TestProcessListeningAfterTheEndAnnouncedEnds(t *testing.T) {
	f := nodetest.PassFactory(2, 3)
	cfg := multiConfig(t, 2, f)
	p1 := startProc(t.Context(), cfg, 1, true)
	p2 := startProc(t.Context(), cfg, 2, false)
	for _, p := range []*proc{p1, p2} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("a process ended with %v, quiescent %v", p.err, p.res.Quiescent)
		}
	}
	late := startProc(t.Context(), cfg, 2, false)
	late.wait()
	if late.err != nil || !late.res.Quiescent || late.res.Exhausted {
		t.Fatalf("the late process ended with %v, quiescent %v, exhausted %v", late.err, late.res.Quiescent, late.res.Exhausted)
	}
}

// The processes of a multi-process run hold its names: a process of
// another run (another RunKey) is refused, as is a second process of a
// node that has one; once the run is over, a new run may start.
func TestAnotherMultiProcessRunIsRefused(t *testing.T) {
	f := nodetest.PassFactory(2, 3)
	cfg := multiConfig(t, 2, f)
	cfg.Lock, cfg.RunKey = true, "pass, 2 nodes"
	claimed := make(chan struct{})
	var once sync.Once
	c1 := cfg
	c1.afterSends = func(int, int, int64) { once.Do(func() { close(claimed) }) } // node 1 sent: its process claimed the names
	p1 := startProc(t.Context(), c1, 1, true)
	select {
	case <-claimed:
	case <-p1.done:
		t.Fatalf("node 1's process ended: %v", p1.err)
	}
	other := cfg
	other.RunKey = "pass, 2 nodes, other ids"
	intruder := startProc(t.Context(), other, 2, false)
	intruder.wait()
	if !errors.Is(intruder.err, ErrHeld) || !strings.Contains(intruder.err.Error(), "pass, 2 nodes") {
		t.Fatalf("a process of another run: %v, want ErrHeld naming the run that holds the names", intruder.err)
	}
	// node 1's lock is taken: a process of another run is refused at
	// once, without waiting for it
	other.lockWaiting = func() { t.Error("a process of another run waited for node 1's lock") }
	intruder = startProc(t.Context(), other, 1, false)
	intruder.wait()
	if !errors.Is(intruder.err, ErrHeld) || !strings.Contains(intruder.err.Error(), "pass, 2 nodes") {
		t.Fatalf("a process of another run on node 1: %v, want ErrHeld naming the run that holds the names", intruder.err)
	}
	// a process of this run waits for the lock (it might be a killed
	// process's), and is refused once the wait is over: here it is short,
	// node 1's process runs until node 2's starts
	twin := cfg
	twin.lockWait = 300 * time.Millisecond
	tp := startProc(t.Context(), twin, 1, false)
	tp.wait()
	if !errors.Is(tp.err, ErrHeld) || !strings.Contains(tp.err.Error(), cfg.Names.NodeLock(1)) {
		t.Fatalf("a second process of node 1: %v, want ErrHeld naming its lock", tp.err)
	}
	other.lockWaiting = nil
	p2 := startProc(t.Context(), cfg, 2, false)
	for _, p := range []*proc{p1, p2} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("a process ended with %v, quiescent %v", p.err, p.res.Quiescent)
		}
	}
	// the run is over: its names are free for another (its queues are
	// empty, so it needs no `ringlab amqp setup`)
	next := startProc(t.Context(), other, 1, true)
	next2 := startProc(t.Context(), other, 2, false)
	for _, p := range []*proc{next, next2} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("a process of the next run ended with %v, quiescent %v", p.err, p.res.Quiescent)
		}
	}
}
