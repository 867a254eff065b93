package live

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

// runtime is one run's shared state. What a node owns lives in its peer
// (peer.go); what the nodes share is guarded by mu, or atomic.
type runtime struct {
	cfg   config
	peers []peer // 1-based; peers[0] unused
	start time.Time

	// over is set once the run has ended: node goroutines return at their
	// next item, and the collector stops asking Stop.
	over atomic.Bool
	// skipped is the time skipped so far (see schedule.go), in
	// nanoseconds; written under mu, read by since from any goroutine.
	skipped atomic.Int64

	// mu guards the termination counters, the schedule, and why the run
	// ended. Every change to the counters is made under mu together with
	// the check for the end (settle), so the check always sees one
	// consistent state: no message, action or timer is ever half counted.
	mu       sync.Mutex
	flight   int64    // messages sent and not yet handled (or dropped) by their receiver
	queued   int64    // actions and timer ticks put in inboxes and not yet handled
	timers   int64    // timers set and not yet due (schedule.go)
	notDone  int64    // live nodes (not crashed) that have not said Done
	sched    schedule // actions and timers due later (schedule.go)
	why      endReason
	err      error
	end      chan struct{} // closed when why is set
	wakeSchd chan struct{} // one slot: "look at the schedule again"
	quit     chan struct{} // closed when the run is over: the scheduler returns

	// turnMu guards the turns (turns.go).
	turnMu    sync.Mutex
	freeTurns int
	readyList fifo[*peer]  // nodes waiting for a turn, oldest first
	waiting   atomic.Int64 // readyList's length, read without turnMu

	evq chan record // to the collector (sink.go); nil without a Sink

	// countMu guards workers: what each node goroutine counted, added
	// when it returns (turns.go).
	countMu sync.Mutex
	workers []tally

	// wg counts the run's goroutines but the collector: the nodes' (a put
	// that starts one adds to it) and the scheduler.
	wg sync.WaitGroup
}

// endReason is why a run ended; the first reason wins.
type endReason int

const (
	endNone endReason = iota
	endQuiescent
	endStopped
	endFailed
)

func newRuntime(cfg config) (*runtime, error) {
	rt := &runtime{
		cfg: cfg, peers: make([]peer, cfg.Nodes+1),
		end: make(chan struct{}), wakeSchd: make(chan struct{}, 1), quit: make(chan struct{}),
	}
	for i := 1; i <= cfg.Nodes; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			return nil, err
		}
		p := &rt.peers[i]
		p.self, p.nd = i, nd
		if cfg.VectorClocks {
			p.vc = make([]uint32, cfg.Nodes)
		}
	}
	rt.notDone = int64(cfg.Nodes)
	rt.freeTurns = maxTurns()
	return rt, nil
}

func (rt *runtime) run(ctx context.Context) (result, error) {
	rt.start = time.Now()
	var sink sync.WaitGroup
	if rt.cfg.Sink != nil {
		rt.evq = make(chan record, sinkQueue)
		sink.Go(rt.collector)
	}
	first := rt.loadScript()
	rt.wg.Go(rt.scheduler)
	for _, p := range first {
		rt.admit(p, nil)
	}
	rt.mu.Lock()
	rt.settle() // a run with nothing to do ends here
	rt.mu.Unlock()

	var timeout <-chan time.Time
	if rt.cfg.Timeout > 0 {
		t := time.NewTimer(rt.cfg.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var progress <-chan time.Time
	if rt.cfg.Progress != nil {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		progress = t.C
	}
	var res result
	var err error
wait:
	for {
		select {
		case <-rt.end:
			break wait
		case <-timeout:
			res.Exhausted = true
			break wait
		case <-ctx.Done():
			err = ctx.Err()
			break wait
		case <-progress:
			rt.mu.Lock()
			p := Progress{Elapsed: time.Since(rt.start), InFlight: rt.flight, NotDone: rt.notDone}
			rt.mu.Unlock()
			rt.cfg.Progress(p)
		}
	}
	// The end: node goroutines return at their next item, the scheduler
	// returns, and every inbox refuses what is put in it from now on, so
	// no goroutine starts again.
	rt.over.Store(true)
	close(rt.quit)
	for i := range rt.peers {
		rt.peers[i].close()
	}
	rt.wg.Wait()
	if rt.evq != nil { // every event is sunk before Run returns
		close(rt.evq)
		sink.Wait()
	}

	res.Elapsed = time.Since(rt.start)
	res.Skipped = time.Duration(rt.skipped.Load())
	res.Now = int64((res.Elapsed + res.Skipped) / rt.cfg.Tick)
	if !res.Exhausted && err == nil {
		switch rt.why {
		case endQuiescent:
			res.Quiescent = true
		case endStopped:
			res.Stopped = true
		case endFailed:
			err = rt.err
		}
	}
	rt.collect(&res)
	return res, err
}

// loadScript puts the script's actions due at once into the inboxes
// before any goroutine starts, so every node handles them before any
// message (as in the simulator, where a message takes at least a tick),
// and the rest into the schedule. It returns the nodes it readied, read
// before any goroutine starts to change them.
func (rt *runtime) loadScript() (first []*peer) {
	starts := make([]action, len(rt.cfg.Script)) // one allocation for a million starts
	store := newStore(len(rt.cfg.Script))        // and one for their inboxes (spare.go)
	for k, a := range rt.cfg.Script {
		if a.At > 0 {
			rt.scheduleAction(time.Duration(a.At)*rt.cfg.Tick, a)
			continue
		}
		starts[k].cmd, starts[k].arg = a.Cmd, a.Arg
		p := &rt.peers[a.Node]
		if cap(p.q.s) == 0 {
			p.q.s = store.next()
		}
		p.q.push(envelope{msg: &starts[k]})
		p.state = ready
		rt.queued++
	}
	for i := range rt.peers {
		if rt.peers[i].state == ready {
			first = append(first, &rt.peers[i])
		}
	}
	return first
}

// since is the run's time so far: the wall time since the start, plus the
// time skipped.
func (rt *runtime) since() time.Duration {
	return time.Since(rt.start) + time.Duration(rt.skipped.Load())
}

// idle reports whether nothing but the schedule's actions can change the
// run any more: no message in flight, no action or tick waiting in an
// inbox, and either every live node done (their timers do not hold the run
// up, as in the simulator) or no timer pending. The caller holds mu.
func (rt *runtime) idle() bool {
	return rt.flight == 0 && rt.queued == 0 && (rt.notDone == 0 || rt.timers == 0)
}

// settle ends the run if it is idle with no action scheduled, and wakes
// the scheduler if it is idle with actions scheduled (it skips time to the
// next one). Every change to the counters calls it; the caller holds mu.
func (rt *runtime) settle() {
	if !rt.idle() {
		return
	}
	if rt.sched.actions == 0 {
		rt.finish(endQuiescent)
		return
	}
	rt.wakeScheduler()
}

// finish ends the run for reason why, unless it has already ended. The
// caller holds mu.
func (rt *runtime) finish(why endReason) {
	if rt.why == endNone {
		rt.why = why
		close(rt.end)
	}
}

// stop ends the run because config.Stop said so.
func (rt *runtime) stop() {
	rt.mu.Lock()
	rt.finish(endStopped)
	rt.mu.Unlock()
}

// fail ends the run with err.
func (rt *runtime) fail(err error) {
	rt.mu.Lock()
	if rt.why == endNone {
		rt.err = err
	}
	rt.finish(endFailed)
	rt.mu.Unlock()
}

// collect sums what the node goroutines counted into res; it is read
// only after every goroutine has returned.
func (rt *runtime) collect(res *result) {
	res.ByType = map[string]int64{}
	for _, w := range rt.workers {
		res.Steps += w.steps
		for _, tc := range w.sent {
			res.Messages += tc.n
			res.ByType[tc.typ] += tc.n
		}
	}
}

func (rt *runtime) checkSend(i, to int, typ string) error {
	if to < 1 || to > rt.cfg.Nodes {
		return fmt.Errorf("node %d sent %s to node %d, outside 1..%d", i, typ, to, rt.cfg.Nodes)
	}
	return nil
}

// maxTurns is how many node goroutines may run at once (turns.go): a few
// per processor, so that a node that blocks briefly (on the sink's
// channel) does not leave a processor idle.
func maxTurns() int { return 4 * goruntime.GOMAXPROCS(0) }
