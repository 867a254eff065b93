package live

// Turns. A node's goroutine handles its inbox only while it holds one of
// the run's few turns (maxTurns). A node that needs a turn while none is
// free waits in the run's ready list, without a runnable goroutine: either
// it has none (it was idle), or its goroutine, which yielded its turn, is
// blocked on its wake channel. A goroutine whose node's inbox is empty
// passes its turn on, to a node it readied if there is one (it
// runs it itself: worker.next), else to the oldest node in the ready list,
// whose goroutine is started (or woken) holding it, or frees it and
// returns. While other nodes wait, a goroutine serves the ready list at
// least every turnLen items: it puts its readied node at the back and
// takes the oldest (release), or, in the middle of a long inbox, yields.
//
// So at most maxTurns node goroutines are ever runnable, and the Go
// scheduler's run queue stays short. Without the bound, on a ring of
// 200,000 busy nodes every node goroutine was runnable at once, and a
// goroutine readied behind them — the one that delivers Ctrl-C, or Run's
// own when the timeout fires — waited most of a minute for its turn (the
// Go scheduler serves its global run queue once in 61 scheduling rounds
// while the local ones have work). TestCancelStopsABigRunAtOnce and
// TestTimeoutBoundsABigRun measure the stop.

// Two choices here are for speed, and each is one edit away from the
// plain version. Measured with
//
//	go test -run '^$' -bench 'AllInitiators/nodes=100000|Live/impl=live/nodes=503' -benchtime 5x ./engine/live
//
// twice each on the 2-core test VM (ranges over the two):
//   - release hands the caller's goroutine on to the next ready node (see
//     work) instead of starting a goroutine for it (the plain version:
//     start one with rt.wg.Go and return nil): a new goroutine grows its
//     stack on the node's first allocation, and that was most of the CPU.
//     All-initiators ring, 100,000 nodes: 332–948 ns/msg, against
//     1,314–2,130 without.
//   - admit leaves a node readied by a node's goroutine to that goroutine's
//     turn when no other node waits (the plain version: admit ignores w):
//     a token ring then runs on one goroutine instead of starting one and
//     ending one per hop. Token ring, 503 nodes: 192–280 ns/hop, against
//     1,351–1,918 without. The node waits in the worker (worker.next), not
//     in the ready list (the plain version: admit puts it in the list and
//     release takes from the list only), so that passing a message on
//     costs no lock of the turns. Chang-Roberts, 100,000 nodes all
//     starting (BenchmarkElection in election/changroberts, impl=live,
//     8 interleaved runs each on a busy 2-core VM): 481–953 ms/op, median
//     570, against 611–1,018, median 834 (impl=baseline: 366–1,630).
//     And it waits there even while other nodes wait in the list (up to
//     turnLen items in a row: release): a goroutine then follows a message
//     along the nodes it visits, whose state is in the cache, instead of
//     serving the list in the order the nodes got ready, all over the
//     heap. 100,000 nodes: 293–384 ms/op against 510–903 (three
//     interleaved runs; baseline 412–504); the million-node command
//     (below the package's README Figures): 3.9–5.5 s against 8.6–14.0 s.

// turnLen is how many items a goroutine handles in a row while other
// nodes wait for a turn.
const turnLen = 64

// The states of a node (inbox.state).
const (
	idle   = iota // nothing to handle, no goroutine at work
	ready         // waits for a turn (in the ready list, or being handed one)
	active        // its goroutine holds a turn
)

// admit asks a turn for node p, which is ready. If the caller is a node's
// goroutine (w, its worker) with no readied node in hand, p waits in
// w.next for the caller's turn, which comes within turnLen items (release
// or yield). A message passed on around a ring thus goes on with the
// goroutine that carried it, instead of one goroutine starting and
// another ending at every hop. Otherwise, if no turn is free, p joins the
// ready list; if one is, p (or the oldest ready node) gets it and a
// goroutine at once, so a free turn never leaves more than one node
// waiting for a goroutine at work.
func (rt *runtime) admit(p *peer, w *worker) {
	if w != nil && w.next == nil {
		w.next = p
		return
	}
	rt.turnMu.Lock()
	if rt.freeTurns == 0 {
		rt.line(p)
		rt.turnMu.Unlock()
		return
	}
	rt.freeTurns--
	if rt.readyList.len() > 0 { // the oldest goes first
		rt.readyList.push(p)
		p = rt.readyList.pop()
	}
	rt.turnMu.Unlock()
	p.resume(rt)
}

// line puts p at the back of the ready list. The caller holds turnMu.
func (rt *runtime) line(p *peer) {
	rt.readyList.push(p)
	rt.waiting.Store(int64(rt.readyList.len()))
}

// next takes the oldest node from the ready list, which must not be
// empty. The caller holds turnMu.
func (rt *runtime) next() *peer {
	p := rt.readyList.pop()
	rt.waiting.Store(int64(rt.readyList.len()))
	return p
}

// release gives the caller's turn to the node waiting for it in w.next,
// or else to the oldest ready node, or frees it. After turnLen items
// since the caller's turn last came from the ready list, if others wait,
// w.next goes to the back of the list and the oldest gets the turn: a
// goroutine that always readies another node cannot keep the list
// waiting for ever (TestReadyListServedWhileGoroutinesChain). If that node has no
// goroutine, release returns it: the caller's goroutine, whose node has
// gone idle, carries on with it (see work), instead of ending while a new
// goroutine starts.
func (rt *runtime) release(w *worker) *peer {
	next := w.next
	w.next = nil
	if next == nil || (w.streak >= turnLen && rt.waiting.Load() > 0) {
		rt.turnMu.Lock()
		if next != nil {
			rt.line(next) // behind the nodes that waited longer
		}
		if rt.readyList.len() == 0 {
			rt.freeTurns++
			rt.turnMu.Unlock()
			return nil
		}
		next = rt.next()
		rt.turnMu.Unlock()
		w.streak = 0
	}
	if next.claim() {
		return next
	}
	return nil
}

// yield hands the caller's turn to the oldest ready node, if there is one,
// queues node p (the caller's) behind the others, and waits for a turn.
// A node waiting in w.next for the caller's turn goes in the ready list
// first.
func (p *peer) yield(rt *runtime, w *worker) {
	rt.turnMu.Lock()
	if rt.readyList.len() == 0 {
		rt.turnMu.Unlock()
		return
	}
	if w.next != nil {
		rt.line(w.next)
		w.next = nil
	}
	p.mu.Lock() // before p can be resumed
	if p.closed {
		// The run is over and close has been and gone: no wake-up would
		// ever come. The caller's loop sees the end at its next item.
		p.mu.Unlock()
		rt.turnMu.Unlock()
		return
	}
	next := rt.next()
	rt.line(p)
	p.state, p.hasG = ready, true
	if p.wake == nil {
		p.wake = make(chan struct{}, 1)
	}
	p.mu.Unlock()
	rt.turnMu.Unlock()
	next.resume(rt)
	<-p.wake // a turn came (resume), or the run is over (close)
	w.streak = 0
}

// resume runs node p with the turn just given to it, on a goroutine of
// its own: it wakes the goroutine that yielded, or starts one.
func (p *peer) resume(rt *runtime) {
	if p.claim() {
		rt.wg.Go(func() { rt.work(p) })
	}
}

// claim makes node p, just given a turn, active. It wakes p's goroutine
// if p yielded, and reports whether p has none: then the caller must run
// it on one.
func (p *peer) claim() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false // the run is over: turns no longer matter
	}
	p.state = active
	if p.hasG {
		p.hasG = false
		p.wake <- struct{}{} // its one slot is free: each yield takes one wake-up
		return false
	}
	return true
}

// work is a node goroutine: it runs node p, then each node that its turn
// passes to when p goes idle, if that node has no goroutine of its own.
// So a goroutine runs one node at a time, and a node's steps run on one
// goroutine at a time; a goroutine that has grown its stack keeps it for
// the next node, instead of a new one growing its own.
func (rt *runtime) work(p *peer) {
	var w worker
	for p != nil {
		p = p.loop(rt, &w)
	}
	rt.countMu.Lock()
	rt.workers = append(rt.workers, w.tally)
	rt.countMu.Unlock()
}
