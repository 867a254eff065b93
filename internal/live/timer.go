package live

import (
	"container/heap"
	"fmt"
	"slices"
	"sync"
	"time"

	"ringlab/internal/node"
)

// timers are a node's pending timers, on one time.Timer armed for the
// earliest. Only the node's goroutine touches them; a node that never sets
// a timer never allocates them.
type timers struct {
	t     *time.Timer
	armed bool
	list  []timerAt // in firing order: by due, then by when they were set
}

type timerAt struct {
	id  int
	due time.Duration // since the start of the run
}

// timerC is the channel of the node's armed timer, or nil.
func (p *peer) timerC() <-chan time.Time {
	if p.tm == nil || !p.tm.armed {
		return nil
	}
	return p.tm.t.C
}

// setTimer sets or cancels one timer and returns the change in the number
// of pending timers (-1, 0 or +1).
func (p *peer) setTimer(rt *runtime, t node.Timer) int64 {
	if p.tm == nil {
		p.tm = &timers{}
	}
	tm := p.tm
	var d int64
	if k := slices.IndexFunc(tm.list, func(e timerAt) bool { return e.id == t.ID }); k >= 0 {
		tm.list = slices.Delete(tm.list, k, k+1)
		d--
	}
	if t.After >= 0 {
		due := rt.since() + time.Duration(t.After)*rt.cfg.Tick
		k := len(tm.list)
		for k > 0 && tm.list[k-1].due > due {
			k--
		}
		tm.list = slices.Insert(tm.list, k, timerAt{t.ID, due})
		d++
	}
	p.rearm(rt)
	return d
}

func (p *peer) rearm(rt *runtime) {
	tm := p.tm
	if len(tm.list) == 0 {
		if tm.t != nil {
			tm.t.Stop()
		}
		tm.armed = false
		return
	}
	d := tm.list[0].due - rt.since()
	if tm.t == nil {
		tm.t = time.NewTimer(d)
	} else {
		tm.t.Reset(d)
	}
	tm.armed = true
}

// fire handles every timer that is due, in order.
func (p *peer) fire(rt *runtime) {
	tm := p.tm
	tm.armed = false
	now := rt.since()
	p.at = int64(now) // the time of the events the timers' steps emit
	for len(tm.list) > 0 && tm.list[0].due <= now && !rt.halt.Load() {
		id := tm.list[0].id
		tm.list = slices.Delete(tm.list, 0, 1)
		p.lc++
		p.step(rt, &node.Input{Kind: node.InTick, Now: p.now(rt), Timer: id}, 0)
	}
	p.rearm(rt)
}

// stopTimers cancels every pending timer and returns how many there were.
func (p *peer) stopTimers() int64 {
	if p.tm == nil {
		return 0
	}
	n := int64(len(p.tm.list))
	if p.tm.t != nil {
		p.tm.t.Stop()
	}
	p.tm = nil
	return n
}

// scheduler delivers actions due later (Script entries with At > 0, React
// answers with a delay) on its own goroutine, owned by the run.
type scheduler struct {
	mu   sync.Mutex
	h    actionHeap
	seq  uint64
	wake chan struct{} // one slot: "the earliest due time changed"
}

func newScheduler() *scheduler { return &scheduler{wake: make(chan struct{}, 1)} }

// add schedules a for due (since the start). Any goroutine may call it.
func (s *scheduler) add(due time.Duration, a node.Action) {
	s.mu.Lock()
	heap.Push(&s.h, scheduled{due: due, seq: s.seq, a: a})
	s.seq++
	first := s.h[0].seq == s.seq-1
	s.mu.Unlock()
	if first {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

func (s *scheduler) loop(rt *runtime) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	var due []node.Action
	for {
		s.mu.Lock()
		now := rt.since()
		for len(s.h) > 0 && s.h[0].due <= now {
			due = append(due, heap.Pop(&s.h).(scheduled).a)
		}
		next := time.Duration(-1)
		if len(s.h) > 0 {
			next = s.h[0].due - now
		}
		s.mu.Unlock()
		for _, a := range due {
			rt.peers[a.Node].put(rt, envelope{msg: &action{a.Cmd}}, int32(a.Node))
		}
		due = due[:0]
		t.Stop()
		var tc <-chan time.Time
		if next >= 0 {
			t.Reset(next)
			tc = t.C
		}
		select {
		case <-s.wake:
		case <-tc:
		case <-rt.done:
			return
		}
	}
}

type scheduled struct {
	due time.Duration
	seq uint64
	a   node.Action
}

type actionHeap []scheduled

func (h actionHeap) Len() int { return len(h) }
func (h actionHeap) Less(i, j int) bool {
	if h[i].due != h[j].due {
		return h[i].due < h[j].due
	}
	return h[i].seq < h[j].seq
}
func (h actionHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *actionHeap) Push(x any)   { *h = append(*h, x.(scheduled)) }
func (h *actionHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

func errReact(i int32, a node.Action) error {
	return fmt.Errorf("node %d: React asked for %s at node %d, outside the run's nodes", i, a.Cmd, a.Node)
}
