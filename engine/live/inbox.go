package live

import (
	"sync"

	"ringlab/engine/node"
)

// envelope is one inbox item: a message from another node (from > 0), or
// an action of the runtime's (from == 0: a scripted or reactive action, or
// a timer's tick), by pointer in msg.
type envelope struct {
	from int      // the sender's index; 0 for an action
	lc   int64    // the sender's Lamport clock at the send
	msg  node.Msg // the message, or an *action
	vc   []uint32 // the sender's vector clock at the send (config.VectorClocks)
}

// action is an inbox item that is not a message: a command, crash or
// restart (cmd), or the tick of a timer (tm). Nodes never see it.
type action struct {
	cmd  node.Cmd
	arg  int    // the command's parameter (node.Action.Arg)
	tm   *timer // a timer's tick when not nil (schedule.go)
	note string // why it came early: "time skipped ..." (schedule.go)
}

func (*action) Type() string { return "action" }

// inbox is a node's mailbox: a FIFO queue under a mutex, which any
// goroutine may append to and only the node's goroutine takes from.
//
// It also keeps the state of the node's goroutine (see turns.go). A node
// has a goroutine only while it has something to handle: the put that
// finds the node idle makes it ready for a turn, and the turn starts its
// goroutine; the goroutine that finds the queue empty marks the node idle,
// gives its turn back and returns. All of it happens under mu, so a node
// never has two goroutines at work, and an item is never left without one.
// Once the run is over (closed), puts are dropped and start nothing.
type inbox struct {
	mu     sync.Mutex
	q      fifo[envelope] // what waits to be handled
	state  int            // idle, ready or active (turns.go)
	hasG   bool           // a goroutine that yielded its turn waits on wake for another
	wake   chan struct{}  // one slot: "you hold a turn"; made when the node first yields
	closed bool
}

// put appends e to node p's inbox and, if the node was idle, asks a turn
// for it. It never blocks for long: only for another put or take on the
// same inbox. The caller is a goroutine counted in rt.wg (a node's or the
// scheduler), so a goroutine started here is added to rt.wg before its
// Wait.
//
// w is the caller's worker when the caller is a node's goroutine, which
// holds a turn that it will give back soon (see admit); nil otherwise.
func (p *peer) put(rt *runtime, e envelope, w *worker) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	if cap(p.q.s) == 0 && w != nil {
		p.q.s = w.spare() // spare.go
	}
	p.q.push(e)
	wasIdle := p.state == idle
	if wasIdle {
		p.state = ready
	}
	p.mu.Unlock()
	if wasIdle {
		rt.admit(p, w)
	}
}

// take returns the node's next item. When there is none, or the run is
// over, it marks the node idle and returns false: the node's goroutine
// must then give its turn back (release). The empty queue's storage goes
// to w, the caller's worker (spare.go).
func (p *peer) take(w *worker) (envelope, bool) {
	p.mu.Lock()
	if p.q.len() == 0 || p.closed {
		if !p.closed {
			w.keep(p.q.s)
			p.q.s = nil
		}
		p.state = idle
		p.mu.Unlock()
		return envelope{}, false
	}
	e := p.q.pop()
	p.mu.Unlock()
	return e, true
}

// close refuses every later put, forgets what the inbox holds, and wakes
// a goroutine that waits for a turn, to return; the run is over.
func (b *inbox) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.q = fifo[envelope]{}
	if b.hasG && b.state == ready {
		b.hasG = false
		b.wake <- struct{}{}
	}
}

// fifo is a first-in first-out queue on a slice, which it reuses: a queue
// that is emptied as fast as it is filled never grows, and one that never
// empties stays the size of what it holds. Its zero value is empty.
type fifo[T any] struct {
	s    []T // s[head:] is the queue, oldest first
	head int
}

func (f *fifo[T]) len() int { return len(f.s) - f.head }

// push adds x at the back.
func (f *fifo[T]) push(x T) {
	if len(f.s) == cap(f.s) && f.head >= len(f.s)/2 {
		// Reuse the front half, taken already, rather than grow.
		n := copy(f.s, f.s[f.head:])
		clear(f.s[n:])
		f.s, f.head = f.s[:n], 0
	}
	f.s = append(f.s, x)
}

// pop takes the front item; the queue must not be empty.
func (f *fifo[T]) pop() T {
	var zero T
	x := f.s[f.head]
	f.s[f.head] = zero // keep nothing alive
	f.head++
	if f.head == len(f.s) {
		f.s, f.head = f.s[:0], 0
	}
	return x
}
