package live

import (
	"context"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"

	"ringlab/internal/node"
)

// runtime is one run's shared state. Everything a node owns lives in its
// peer; what is shared is atomic or guarded by a mutex.
type runtime struct {
	cfg   Config
	peers []peer // 1-based; peers[0] unused
	start time.Time
	done  <-chan struct{} // closed when the run is over
	halt  atomic.Bool     // set when the run is over: batch drains stop early
	// untimed: the collector times a clockless node's events (Config.Untimed)
	untimed bool
	sched   *scheduler // nil when nothing is ever scheduled for later

	// Termination. pending counts messages, timers and actions that are not
	// yet fully handled; a step adds what it creates before it makes any of
	// it visible and subtracts what it consumed after, so pending touches
	// zero only when the run is quiescent. flight counts messages sent and
	// not yet handled; notDone counts live nodes that have not said Done.
	// They sit on their own cache lines: every core touches them.
	_       [64]byte
	pending atomic.Int64
	_       [56]byte
	flight  atomic.Int64
	_       [56]byte
	notDone atomic.Int64
	_       [56]byte

	why   atomic.Int32  // endQuiescent, endStopped, or endFailed
	end   chan struct{} // closed when why is first set
	errMu sync.Mutex
	err   error
	evq   chan record // to the collector (sink.go); nil without a Sink
	// sinkWake wakes a batched collector (Config.Batch); closed at the end.
	sinkWake chan struct{}

	chunks *chunkPool // free overflow chunks (inbox.go)

	// wg counts the goroutines of the run but the collector: the nodes',
	// including those started again after parking (restart), and the
	// scheduler's. Only goroutines it counts put items in inboxes, so a
	// restart adds to it while it is above zero.
	wg sync.WaitGroup
}

const endFailed int32 = 3

func newRuntime(cfg Config) (*runtime, error) {
	rt := &runtime{cfg: cfg, peers: make([]peer, cfg.Nodes+1), end: make(chan struct{}), chunks: newChunkPool()}
	rt.untimed = cfg.Untimed && cfg.Batch
	for i := 1; i <= cfg.Nodes; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			return nil, err
		}
		p := &rt.peers[i]
		p.self, p.nd, p.ch = int32(i), nd, make(chan envelope, inboxCap)
		_, p.clockless = nd.(node.Clockless)
	}
	later := cfg.React != nil
	for _, a := range cfg.Script {
		later = later || a.At > 0
	}
	if later {
		rt.sched = newScheduler()
	}
	rt.pending.Store(int64(len(cfg.Script)))
	rt.notDone.Store(int64(cfg.Nodes))
	return rt, nil
}

func (rt *runtime) run(ctx context.Context) (Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rt.done = ctx.Done()
	rt.start = time.Now()
	var sink sync.WaitGroup
	if rt.cfg.Sink != nil {
		rt.evq, rt.sinkWake = make(chan record, sinkQueue), make(chan struct{}, 1)
		sink.Go(rt.collector)
	}
	// The script's due actions go into the inboxes before the goroutines
	// start: a node that starts with its command waiting handles it at
	// once, instead of parking on an empty inbox to be woken for it (a
	// million-node election starts every node).
	due := make([]action, len(rt.cfg.Script))
	for k, a := range rt.cfg.Script {
		if a.At <= 0 {
			due[k].cmd = a.Cmd
			rt.peers[a.Node].put(rt, envelope{msg: &due[k]}, 0) // no goroutine yet
		}
	}
	// Every node goroutine runs the same closure, which takes the next
	// peer: a closure per goroutine would be a million more allocations.
	wg := &rt.wg
	var spawned atomic.Int64
	node := func() {
		rt.peers[spawned.Add(1)].loop(rt)
		wg.Done() // no defer: a Step that panics ends the process
	}
	wg.Add(len(rt.peers) - 1)
	for range len(rt.peers) - 1 {
		go node()
	}
	if rt.sched != nil {
		wg.Go(func() { rt.sched.loop(rt) })
	}
	if len(rt.cfg.Script) == 0 {
		rt.finish(endQuiescent) // nothing will ever happen
	}
	for _, a := range rt.cfg.Script {
		if a.At > 0 {
			rt.schedule(0, a)
		}
	}

	var timeout <-chan time.Time
	if rt.cfg.Timeout > 0 {
		t := time.NewTimer(rt.cfg.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var res Result
	var err error
	select {
	case <-rt.end:
	case <-timeout:
		res.Exhausted = true
	case <-ctx.Done():
		err = ctx.Err()
	}
	rt.halt.Store(true)
	cancel() // the scheduler
	rt.haltAll()
	wg.Wait()
	if rt.evq != nil { // every event is sunk before Run returns
		close(rt.evq)
		close(rt.sinkWake)
		sink.Wait()
	}

	res.Elapsed = time.Since(rt.start)
	res.Now = int64(res.Elapsed / rt.cfg.Tick)
	if !res.Exhausted && err == nil {
		switch rt.why.Load() {
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

// restart starts a new goroutine for node i, which had parked (see
// peer.park); the caller has set it running.
//
//go:noinline
func (rt *runtime) restart(i int32) {
	rt.wg.Add(1)
	go rt.resume(i)
}

func (rt *runtime) resume(i int32) {
	p := &rt.peers[i]
	// A sender may have started it for an empty inbox (see peer.halt):
	// then it parks again at once.
	if !(p.done && p.cur == nil && p.empty() && p.park()) {
		p.loop(rt)
	}
	rt.wg.Done()
}

// haltAll ends every node's part in the run (peer.halt), on as many
// goroutines as there are Ps: a million running nodes each need a stop
// and a goroutine switch (from one goroutine, that kept one core busy for
// a second), and a million parked ones a compare-and-swap each.
func (rt *runtime) haltAll() {
	n := len(rt.peers) - 1
	k := min(goruntime.GOMAXPROCS(0), max(n/1024, 1))
	var hw sync.WaitGroup
	for w := range k {
		lo, hi := 1+n*w/k, 1+n*(w+1)/k
		hw.Go(func() {
			for i := lo; i < hi; i++ {
				rt.peers[i].halt(rt)
			}
		})
	}
	hw.Wait()
}

// collect sums the per-node counters into res: nodes count on their own
// and are read only after every goroutine has returned.
func (rt *runtime) collect(res *Result) {
	// A run has a few message types: a short list takes a node's counts
	// faster than a map (two map updates a node cost 40 ms on a million).
	var sums []typeCount
	add := func(tc typeCount) {
		for k := range sums {
			if sums[k].typ == tc.typ {
				sums[k].n += tc.n
				return
			}
		}
		sums = append(sums, tc)
	}
	for i := range rt.peers {
		p := &rt.peers[i]
		res.Steps += p.steps
		for _, tc := range p.sent {
			if tc.n > 0 {
				add(tc)
			}
		}
		if p.more != nil {
			for _, tc := range *p.more {
				add(tc)
			}
		}
	}
	res.ByType = map[string]int64{}
	for _, tc := range sums {
		res.Messages += tc.n
		res.ByType[tc.typ] += tc.n
	}
}

// finish ends the run for reason why, unless it has already ended.
func (rt *runtime) finish(why int32) {
	if rt.why.CompareAndSwap(endNone, why) {
		close(rt.end)
	}
}

func (rt *runtime) fail(err error) {
	rt.errMu.Lock()
	if rt.err == nil {
		rt.err = err
	}
	rt.errMu.Unlock()
	rt.finish(endFailed)
}

// settle subtracts what a step consumed (dPending, dFlight <= 0) and ends
// the run if that left nothing to do. Additions are made up front by the
// step itself, so the counters never touch zero while work remains.
func (rt *runtime) settle(dPending, dFlight int64) {
	if dFlight < 0 && rt.flight.Add(dFlight) == 0 && rt.notDone.Load() == 0 {
		rt.finish(endQuiescent)
	}
	if dPending < 0 && rt.pending.Add(dPending) == 0 {
		rt.finish(endQuiescent)
	}
}

// markDone records that a live node is done (d = -1) or no longer counts
// as done (d = +1, after a restart).
func (rt *runtime) markDone(d int64) {
	if rt.notDone.Add(d) == 0 && rt.flight.Load() == 0 {
		rt.finish(endQuiescent)
	}
}

// schedule delivers action a after `after` of wall time (counted in
// pending by the caller). Due actions go straight into the inbox.
func (rt *runtime) schedule(after time.Duration, a node.Action) {
	if a.At <= 0 {
		rt.peers[a.Node].put(rt, envelope{msg: &action{a.Cmd}}, int32(a.Node))
		return
	}
	rt.sched.add(after+time.Duration(a.At)*rt.cfg.Tick, a)
}

// since is the run's wall time so far.
func (rt *runtime) since() time.Duration { return time.Since(rt.start) }

func (rt *runtime) checkSend(i int32, s node.Send) error {
	if s.To < 1 || s.To > rt.cfg.Nodes {
		return fmt.Errorf("node %d sent %s to node %d, outside 1..%d", i, s.Msg.Type(), s.To, rt.cfg.Nodes)
	}
	return nil
}
