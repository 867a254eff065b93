package live

import (
	"sync"
	"sync/atomic"

	"ringlab/internal/node"
)

// inboxCap is the capacity of an inbox's channel.
const inboxCap = 2

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

// chunkLen is the number of envelopes in an overflow chunk.
const chunkLen = 4

// chunk is a piece of an inbox's overflow queue: a linked list of
// fixed-size chunks, taken from and given back to the run's free list
// (chunkPool), so a burst allocates nothing once the pool has warmed up —
// no garbage, and no mallocgc frames on a node's small stack.
type chunk struct {
	e    [chunkLen]envelope
	n    int32 // envelopes in e
	r    int32 // the next to read (by the node)
	next *chunk
}

// chunkPool is the run's free list of chunks: a sync.Pool, whose free
// lists are per P, so the two cores that spill and drain inboxes at once
// do not fight over one lock (a shared buffered channel here was a hot
// spot on a million nodes: a pool operation every four spilled messages).
// When it is empty, get carves a slab of chunks at once, so the few node
// goroutines that allocate do it rarely: an allocation's frames on a
// node's small stack can grow it for good (see peer.loop).
type chunkPool struct{ p sync.Pool }

const slabLen = 256 // chunks allocated at once when the free list is empty

func newChunkPool() *chunkPool {
	f := &chunkPool{}
	f.p.New = func() any { return f.refill() }
	return f
}

func (f *chunkPool) get() *chunk { return f.p.Get().(*chunk) }

//go:noinline
func (f *chunkPool) refill() *chunk {
	s := new([slabLen]chunk)
	for k := 1; k < slabLen; k++ {
		f.p.Put(&s[k])
	}
	return &s[0]
}

// free gives back c, which the node has emptied (every envelope zeroed).
func (f *chunkPool) free(c *chunk) {
	c.n, c.r, c.next = 0, 0, nil
	f.p.Put(c)
}

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
	ch         chan envelope
	ovf        atomic.Bool  // the overflow is non-empty, or being handled
	g          atomic.Int32 // the node's goroutine: running, parked or gone
	mu         sync.Mutex   // guards head and tail
	head, tail *chunk       // the overflow queue
}

// put delivers e to node `to`, whose inbox b is, and starts the node's
// goroutine again if it had parked (see peer.park); with to == 0, it only
// delivers. It never blocks. Any goroutine counted in Run's wait group may
// call it: a restart adds to the group. (One function, not two: a frame
// more on a node's path to spill can grow its stack; see peer.loop.)
func (b *inbox) put(rt *runtime, e envelope, to int32) {
	sent := false
	if !b.ovf.Load() {
		select {
		case b.ch <- e:
			sent = true
		default:
		}
	}
	if !sent {
		b.spill(rt, e)
	}
	if to > 0 && b.g.Load() == parked && b.g.CompareAndSwap(parked, running) {
		rt.restart(to)
	}
}

// The states of a node's goroutine (inbox.g). A node that is done and has
// nothing to handle lets its goroutine end (parked); the next item put in
// its inbox starts a new one (running again). At the end of the run, Run
// marks every parked node gone, so no late message restarts it, and stops
// the running ones.
const (
	running int32 = iota
	parked
	gone
)

// spill is put's slow path: the channel is full, or the overflow in use.
//
//go:noinline
func (b *inbox) spill(rt *runtime, e envelope) {
	b.mu.Lock()
	first := b.head == nil
	t := b.tail
	if t == nil || t.n == chunkLen {
		b.mu.Unlock() // take no lock inside another
		c := rt.chunks.get()
		b.mu.Lock()
		first = b.head == nil
		if t = b.tail; t == nil || t.n == chunkLen {
			if t == nil {
				b.head = c
			} else {
				t.next = c
			}
			b.tail, t = c, c
		} else {
			rt.chunks.free(c)
		}
	}
	t.e[t.n] = e
	t.n++
	b.ovf.Store(true)
	b.mu.Unlock()
	if first {
		select {
		case b.ch <- envelope{from: nudge}:
		default:
		}
	}
}

// empty reports whether the inbox holds nothing: no overflow queued, and
// an empty channel (the node may still hold overflow chunks: peer.cur).
// The node's goroutine calls it again right after it marked itself parked
// (peer.park): the ovf load, an atomic, orders the channel's length after
// that mark on every architecture, as a sender orders its check of the
// mark after its delivery. So either the node sees the item, or the
// sender sees the mark.
func (b *inbox) empty() bool {
	return !b.ovf.Load() && len(b.ch) == 0
}

// next returns the node's next inbox item, waiting for one if there is
// none: first the overflow chunks taken last time, then (while the
// overflow is in use) the channel, then the overflow again. Only the
// node's goroutine calls it.
//
//go:noinline
func (p *peer) next(rt *runtime) envelope {
	for {
		if c := p.cur; c != nil {
			if c.r < c.n {
				e := c.e[c.r]
				c.e[c.r] = envelope{}
				c.r++
				return e
			}
			p.cur = c.next
			rt.chunks.free(c)
			continue
		}
		if !p.ovf.Load() {
			return p.wait(rt)
		}
		select {
		case e := <-p.ch: // the channel's items precede the overflow's (per sender)
			return e
		default:
		}
		p.mu.Lock()
		h := p.head
		if h == nil {
			p.ovf.Store(false)
			p.mu.Unlock()
			continue
		}
		p.head, p.tail = nil, nil
		p.mu.Unlock()
		p.cur = h
	}
}
