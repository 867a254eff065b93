package live

// Turns. A node's goroutine handles its inbox only while it holds one of
// the run's few turns (cap: maxTurns). A node that needs a turn while none
// is free waits in the run's ready list, without a runnable goroutine:
// either it has none yet, or its goroutine is blocked on its wake channel.
// A goroutine gives its turn back when its inbox is empty, and after
// turnLen items in a row if others are waiting; the turn goes straight to
// the oldest node in the ready list, whose goroutine is woken (or started)
// holding it.
//
// So at most maxTurns node goroutines are ever runnable, and the Go
// scheduler's run queue stays short. Without the bound, on a ring of
// 200,000 busy nodes every node goroutine was runnable at once, and a
// goroutine readied behind them — the one that delivers Ctrl-C, or Run's
// own when the timeout fires — waited most of a minute for its turn (the
// Go scheduler serves its global run queue once in 61 scheduling rounds
// while the local ones have work). TestCancelStopsABigRunAtOnce and
// TestTimeoutBoundsABigRun measure the stop.

// turnLen is how many items a goroutine handles in a row while other
// nodes wait for a turn.
const turnLen = 64

// The states of a node's goroutine (inbox.state).
const (
	idle    = iota // no goroutine, nothing to handle
	ready          // waits for a turn (in the ready list, or being handed one)
	active         // its goroutine holds a turn
	waiting        // its goroutine waits for a put, without a turn
)

// admit asks a turn for node p, which is ready: if one is free, p gets it
// and is resumed at once; if not, p joins the ready list.
func (rt *runtime) admit(p *peer) {
	rt.turnMu.Lock()
	if rt.freeTurns == 0 {
		rt.readyList = append(rt.readyList, p)
		rt.turnMu.Unlock()
		return
	}
	rt.freeTurns--
	rt.turnMu.Unlock()
	p.resume(rt)
}

// release gives the caller's turn to the oldest ready node, or frees it.
func (rt *runtime) release() {
	rt.turnMu.Lock()
	if len(rt.readyList) == 0 {
		rt.freeTurns++
		rt.turnMu.Unlock()
		return
	}
	next := rt.readyList[0]
	rt.readyList[0] = nil
	rt.readyList = rt.readyList[1:]
	rt.turnMu.Unlock()
	next.resume(rt)
}

// yield hands the caller's turn to the oldest ready node, if there is one,
// and queues node p (the caller's) behind the others. It reports whether
// p must now wait for a turn (on p.wake).
func (p *peer) yield(rt *runtime) bool {
	p.mu.Lock()
	p.state = ready // from now on, a put leaves p to the ready list
	p.mu.Unlock()
	rt.turnMu.Lock()
	if len(rt.readyList) == 0 {
		rt.turnMu.Unlock()
		p.mu.Lock()
		p.state = active
		p.mu.Unlock()
		return false
	}
	next := rt.readyList[0]
	rt.readyList[0] = nil
	rt.readyList = append(rt.readyList[1:], p)
	rt.turnMu.Unlock()
	next.resume(rt)
	return true
}

// resume runs node p with the turn just given to it: it wakes p's
// goroutine, or starts one.
func (p *peer) resume(rt *runtime) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return // the run is over: turns no longer matter
	}
	p.state = active
	if p.hasG {
		p.wake <- struct{}{} // its one slot is free: the goroutine took the last wake-up before it waited
		return
	}
	p.hasG = true
	if p.wake == nil {
		p.wake = make(chan struct{}, 1)
	}
	rt.wg.Go(func() { p.loop(rt) })
}
