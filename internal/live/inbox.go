package live

import (
	"sync"

	"ringlab/internal/node"
)

// envelope is one inbox item: a message from another node (from > 0), or
// an action of the runtime's (from == 0: a scripted or reactive action, or
// a timer's tick), by pointer in msg.
type envelope struct {
	from int      // the sender's index; 0 for an action
	lc   int64    // the sender's Lamport clock at the send
	msg  node.Msg // the message, or an *action
	vc   []uint32 // the sender's vector clock at the send (Config.VectorClocks)
}

// action is an inbox item that is not a message: a command, crash or
// restart (cmd), or the tick of a timer (tm). Nodes never see it.
type action struct {
	cmd  node.Cmd
	tm   *timer // a timer's tick when not nil (schedule.go)
	note string // why it came early: "time skipped ..." (schedule.go)
}

func (*action) Type() string { return "action" }

// inbox is a node's mailbox: a FIFO queue under a mutex, which any
// goroutine may append to and only the node's goroutine takes from.
//
// It also decides when the node has a goroutine. running says that one
// exists. The put that finds no goroutine starts one; a goroutine that
// finds the queue empty waits for the next put (waiting, woken through
// wake), or, if its node is done or crashed, returns: a node that is done
// rarely hears more, so a finished election holds no goroutines. All of
// it happens under mu, so a node never has two goroutines, and an item is
// never left without one. Once the run is over (closed), puts are dropped
// and start nothing, and a waiting goroutine is woken to return.
type inbox struct {
	mu      sync.Mutex
	q       []envelope // q[head:] waits to be handled, oldest first
	head    int
	running bool
	waiting bool
	wake    chan struct{} // one slot; made when the goroutine first waits
	closed  bool
}

// put appends e to node p's inbox, and starts or wakes the node's
// goroutine. It never blocks for long: only for another put or take on the
// same inbox. The caller is a goroutine counted in rt.wg (a node's or the
// scheduler), so adding to rt.wg here cannot race with its Wait.
func (p *peer) put(rt *runtime, e envelope) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.push(e)
	switch {
	case !p.running:
		p.running = true
		rt.wg.Go(func() { p.loop(rt) })
	case p.waiting:
		p.waiting = false
		p.wake <- struct{}{} // the slot is free: the goroutine took the last wake-up before it waited
	}
}

// push appends e to the queue. The caller holds mu, or no goroutine runs
// yet.
func (b *inbox) push(e envelope) {
	if len(b.q) == cap(b.q) && b.head >= len(b.q)/2 {
		// Reuse the handled front half rather than grow: a queue that
		// never empties stays the size of what it holds.
		n := copy(b.q, b.q[b.head:])
		clear(b.q[n:])
		b.q, b.head = b.q[:n], 0
	}
	b.q = append(b.q, e)
}

// take returns the node's next item, waiting for one if there is none. It
// returns false when the goroutine must return: the run is over, or the
// queue is empty and letGo says the node can do without its goroutine
// (it is then marked as having none).
//
// While it waits it gives back the goroutine's turn (see turnLen), and
// takes one again once woken.
func (b *inbox) take(rt *runtime, letGo bool) (envelope, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.head == len(b.q) && !b.closed {
		b.q, b.head = b.q[:0], 0
		if letGo {
			b.running = false
			return envelope{}, false
		}
		if b.wake == nil {
			b.wake = make(chan struct{}, 1)
		}
		b.waiting = true
		b.mu.Unlock()
		<-rt.turns
		<-b.wake
		rt.turns <- struct{}{}
		b.mu.Lock()
	}
	if b.closed {
		return envelope{}, false
	}
	e := b.q[b.head]
	b.q[b.head] = envelope{} // keep no message alive
	b.head++
	return e, true
}

// close refuses every later put, forgets what the inbox holds, and wakes
// a waiting goroutine to return; the run is over.
func (b *inbox) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.q, b.head = nil, 0
	if b.waiting {
		b.waiting = false
		b.wake <- struct{}{}
	}
}
