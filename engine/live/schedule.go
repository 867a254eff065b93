package live

import (
	"container/heap"
	"fmt"
	"time"

	"ringlab/engine/node"
)

// The schedule holds what is due later: scripted actions (config.Script
// entries with At > 0), reactions with a delay (config.React), and the
// nodes' timers. One goroutine of the run, the scheduler, puts each in its
// node's inbox when it falls due. The schedule and the timers' flags are
// guarded by runtime.mu.

// timer is one pending timer of a node. The node keeps its pending timers
// by id (peer.timers); replacing or cancelling one marks it cancelled, and
// the scheduler drops it when it comes due. A tick that was already on its
// way when the timer was cancelled is recognised by the node: the timer is
// no longer its timer for that id (peer.fire).
type timer struct {
	node, id  int
	fired     bool // taken from the schedule, its tick put in the inbox
	cancelled bool
}

// entry is one scheduled item: an action, or a timer's tick when tm is set.
type entry struct {
	due time.Duration // since the start of the run, skipped time included
	seq uint64        // ties in due go in the order they were scheduled
	a   node.Action
	tm  *timer
}

// schedule is a heap of entries, earliest first.
type schedule struct {
	h       entryHeap
	seq     uint64
	actions int // entries that are actions; the rest are timers
}

// add schedules e and wakes the scheduler if e is now the earliest. The
// caller holds mu.
func (rt *runtime) add(e entry) {
	s := &rt.sched
	e.seq = s.seq
	s.seq++
	heap.Push(&s.h, e)
	if s.h[0].seq == e.seq {
		rt.wakeScheduler()
	}
}

// scheduleAction schedules a for due. The caller holds mu (or no
// goroutine runs yet).
func (rt *runtime) scheduleAction(due time.Duration, a node.Action) {
	rt.sched.actions++
	rt.add(entry{due: due, a: a})
}

// setTimer sets or cancels one of node p's timers, from p's step at p.at.
// The caller holds rt.mu.
func (p *peer) setTimer(rt *runtime, t node.Timer) {
	if old := p.timers[t.ID]; old != nil {
		rt.cancel(old)
		delete(p.timers, t.ID)
	}
	if t.After < 0 {
		return
	}
	if p.timers == nil {
		p.timers = map[int]*timer{}
	}
	tm := &timer{node: p.self, id: t.ID}
	p.timers[t.ID] = tm
	rt.timers++
	rt.add(entry{due: p.at + time.Duration(t.After)*rt.cfg.Tick, tm: tm})
}

// stopTimers cancels every pending timer of node p. The caller holds
// rt.mu.
func (p *peer) stopTimers(rt *runtime) {
	for _, tm := range p.timers {
		rt.cancel(tm)
	}
	p.timers = nil
}

// cancel takes tm off the count of pending timers, unless its tick is
// already on its way (then the tick is counted in queued until the node
// has ignored it). The caller holds mu.
func (rt *runtime) cancel(tm *timer) {
	if !tm.fired && !tm.cancelled {
		tm.cancelled = true
		rt.timers--
	}
}

func (rt *runtime) wakeScheduler() {
	select {
	case rt.wakeSchd <- struct{}{}:
	default: // a wake-up is already waiting
	}
}

// scheduler is the run's goroutine that delivers what falls due, and
// skips time when nothing else is left to do (see takeDue).
func (rt *runtime) scheduler() {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		rt.mu.Lock()
		due, wait := rt.takeDue()
		rt.mu.Unlock()
		for _, e := range due {
			if e.tm != nil {
				rt.peers[e.tm.node].put(rt, envelope{msg: &action{tm: e.tm}}, nil)
			} else {
				rt.peers[e.a.Node].put(rt, envelope{msg: &action{cmd: e.a.Cmd, arg: e.a.Arg, note: e.note}}, nil)
			}
		}
		var tc <-chan time.Time
		if wait >= 0 {
			t.Reset(wait)
			tc = t.C
		}
		select {
		case <-rt.wakeSchd:
		case <-tc:
		case <-rt.quit:
			return
		}
	}
}

// dueEntry is an entry taken from the schedule, with the note its event
// gets when time was skipped to it.
type dueEntry struct {
	entry
	note string
}

// takeDue takes every entry that is due, counts it as queued, and returns
// them with how long to wait for the next (-1: nothing scheduled). The
// caller holds mu.
//
// If the run is idle (runtime.idle) and an action is still scheduled,
// waiting for the wall clock would change nothing but the wait: so the
// run's time skips to the next entry at once, as the simulator's virtual
// time would, and the actions delivered then carry a note that says so.
func (rt *runtime) takeDue() (due []dueEntry, wait time.Duration) {
	h := &rt.sched.h
	for len(*h) > 0 && (*h)[0].tm != nil && (*h)[0].tm.cancelled {
		heap.Pop(h)
	}
	now := rt.since()
	note := ""
	if len(*h) > 0 && (*h)[0].due > now && rt.idle() && rt.sched.actions > 0 {
		next := (*h)[0].due
		rt.skipped.Add(int64(next - now))
		note = fmt.Sprintf("time skipped from t=%d to t=%d: nothing else was left to do", now/rt.cfg.Tick, next/rt.cfg.Tick)
		now = next
	}
	for len(*h) > 0 && (*h)[0].due <= now {
		e := heap.Pop(h).(entry)
		if e.tm != nil {
			if e.tm.cancelled {
				continue
			}
			e.tm.fired = true
			rt.timers--
		} else {
			rt.sched.actions--
		}
		rt.queued++
		due = append(due, dueEntry{e, note})
	}
	for len(*h) > 0 && (*h)[0].tm != nil && (*h)[0].tm.cancelled {
		heap.Pop(h)
	}
	if len(*h) == 0 {
		return due, -1
	}
	return due, (*h)[0].due - now
}

type entryHeap []entry

func (h entryHeap) Len() int { return len(h) }
func (h entryHeap) Less(i, j int) bool {
	if h[i].due != h[j].due {
		return h[i].due < h[j].due
	}
	return h[i].seq < h[j].seq
}
func (h entryHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x any)   { *h = append(*h, x.(entry)) }
func (h *entryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func errReact(i int, a node.Action) error {
	return fmt.Errorf("node %d: React asked for %s at node %d, outside the run's nodes", i, a.Cmd, a.Node)
}
