package live

import (
	"sync"
	"sync/atomic"

	"ringlab/internal/node"
)

// inboxCap is the capacity of an inbox's channel, and maxKeep the largest
// overflow buffer (in envelopes) a node keeps for reuse after a burst.
// Measured on the million-node all-initiators ring (big_test.go), peak
// RSS per node and wall time: cap 1/keep 64 4527 B 9.7 s, cap 1/keep 4
// 4515 B 11.1 s, cap 2/keep 8 4344 B 9.2 s, cap 4/keep 4 4025 B 14.1 s;
// the single-token ring is indifferent (3.28-3.31 KB per node).
const (
	inboxCap = 2
	maxKeep  = 8
)

// envelope is one inbox item.
type envelope struct {
	from int32    // the sender's index; 0 for an action, or nudge or stop
	lc   int64    // the sender's Lamport clock at the send
	msg  node.Msg // the message, or an action
}

// Senders that are not nodes.
const (
	nudge int32 = -1 // "the overflow has items": see inbox.put
	stop  int32 = -2 // the run is over: the node's goroutine returns
)

// inbox is a node's mailbox: a small buffered channel the node selects on,
// and an unbounded overflow queue for when the channel is full, so a send
// never blocks the sender.
//
// FIFO per sender: once the overflow holds anything, every sender appends
// to it (ovf is set), until the node has handled all of it; the node
// handles what is in the channel before what is in the overflow. A sender
// that makes the overflow non-empty also puts a nudge in the channel if
// there is room; if there is none, the node has items to receive and
// checks ovf after each one, so it cannot sleep on a non-empty overflow.
type inbox struct {
	ch  chan envelope
	ovf atomic.Bool // the overflow is non-empty, or being handled
	mu  sync.Mutex  // guards q
	q   []envelope
}

// put delivers e; it never blocks. Any goroutine may call it.
func (b *inbox) put(e envelope) {
	if !b.ovf.Load() {
		select {
		case b.ch <- e:
			return
		default:
		}
	}
	b.spill(e)
}

// spill is put's slow path: the channel is full, or the overflow in use.
//
//go:noinline
func (b *inbox) spill(e envelope) {
	b.mu.Lock()
	b.q = append(b.q, e)
	first := len(b.q) == 1
	b.ovf.Store(true)
	b.mu.Unlock()
	if first {
		select {
		case b.ch <- envelope{from: nudge}:
		default:
		}
	}
}

// next returns the node's next inbox item, waiting for one if there is
// none: first a batch taken from the overflow, then (while the overflow is
// in use) the channel, then the overflow again. Only the node's goroutine
// calls it.
//
//go:noinline
func (p *peer) next(rt *runtime) envelope {
	for {
		if p.bi < len(p.batch) {
			e := p.batch[p.bi]
			p.batch[p.bi] = envelope{}
			p.bi++
			return e
		}
		if !p.ovf.Load() {
			return p.wait(rt)
		}
		select {
		case e := <-p.ch: // the channel's items precede the overflow's (per sender)
			return e
		default:
		}
		spare := p.batch[:0]
		if cap(spare) > maxKeep {
			spare = nil
		}
		p.mu.Lock()
		batch := p.q
		if len(batch) == 0 {
			p.ovf.Store(false)
			p.mu.Unlock()
			continue
		}
		p.q = spare
		p.mu.Unlock()
		p.batch, p.bi = batch, 0
	}
}
