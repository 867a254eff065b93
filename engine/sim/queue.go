package sim

import (
	"math"

	"ringlab/engine/node"
)

// slot is one pending delivery: a message, a timer firing, or an action.
// It is kept to 40 bytes because the wheel copies it on every message: its
// time and sequence number are implicit in the wheel (a bucket holds one
// tick, in push order), its kind is coded in from, and what only some items
// need lives in side tables indexed by aux.
type slot struct {
	msg  node.Msg
	lc   int64
	aux  int64 // timer: id<<32|generation; action: index in sim.cmds or config.Script; message: index in sim.vcs (with vector clocks)
	from int32 // a message's sender (>= 1), or slotTimer, slotAction, slotScript
	to   int32
}

const (
	slotTimer  int32 = 0  // a timer firing
	slotAction int32 = -1 // an action pushed during the run (aux indexes sim.cmds)
	slotScript int32 = -2 // a scripted action (aux indexes the sorted script)
)

func timerAux(id int, gen uint32) int64 { return int64(uint64(uint32(int32(id)))<<32 | uint64(gen)) }

func (it *slot) timer() (id int, gen uint32) {
	return int(int32(uint64(it.aux) >> 32)), uint32(it.aux)
}

// farItem is a slot waiting in the heap, with its (at, seq) key.
type farItem struct {
	at  int64
	seq uint64
	slot
}

// queue orders items by (at, seq). Items due within the wheel's span sit in
// per-tick FIFO buckets; later ones wait in a heap and move into the wheel
// as time approaches. Because an item pushed into the heap for tick T is
// always older than any pushed straight into T's bucket, moving heap items
// in before the bucket is read keeps (at, seq) order exactly.
//
// The script (actions given up front) is not pushed: it stays a list sorted
// by time, read with a cursor. Its actions would have taken the first
// sequence numbers, so at any tick they come before everything else due
// then, which is where the cursor puts them.
//
// A bucket is a list of chunks taken from a free list shared by all
// buckets: a busy tick grows without copying, and only the few buckets in
// use hold storage, not every bucket the size of the busiest tick it has seen.
type queue struct {
	now     int64
	seq     uint64
	mask    int64
	buckets []bucket
	inWheel int
	far     []farItem // a binary min-heap by (at, seq)
	free    *chunk    // emptied chunks
	grown   int       // slots allocated in chunks so far
	script  []node.Action
	next    int   // the script's cursor
	nextAt  int64 // when the action at the cursor is due (noScript past the end)
	tmp     slot  // the script action being popped
	last    *slot // the slot pop returned last
}

// bucket is the FIFO of one tick: chunks from head to tail, read at r in
// head, written at w in tail.
type bucket struct {
	head, tail *chunk
	r, w       int
}

type chunk struct {
	slots []slot
	next  *chunk
}

// Chunk sizes double with the slots allocated so far, from minChunk (a
// small run allocates little) to maxChunk.
const (
	minChunk = 32
	maxChunk = 4096
)

func newQueue(span int64, script []node.Action) *queue {
	w := int64(64)
	for w < 2*span {
		w *= 2
	}
	q := &queue{mask: w - 1, buckets: make([]bucket, w), script: script}
	q.nextAt = q.scriptAt(0)
	return q
}

// noScript is nextAt once the script is over: no tick is that late.
const noScript = math.MaxInt64

func (q *queue) scriptAt(k int) int64 {
	if k < len(q.script) {
		return q.script[k].At
	}
	return noScript
}

// push schedules it at tick at (not before now).
func (q *queue) push(at int64, it *slot) {
	if at < q.now {
		at = q.now
	}
	seq := q.seq
	q.seq++
	if at <= q.now+q.mask {
		q.add(&q.buckets[at&q.mask], it)
		return
	}
	q.farPush(farItem{at: at, seq: seq, slot: *it})
}

// add appends it to bk.
func (q *queue) add(bk *bucket, it *slot) {
	// Copied field by field: the slot was just written field by field, and
	// a block copy's wide loads would stall on those narrow stores.
	e := q.slotIn(bk)
	e.msg, e.lc, e.aux, e.from, e.to = it.msg, it.lc, it.aux, it.from, it.to
}

// pushNear is push for an item due within the wheel's span (at-q.now <=
// q.mask, which any message's latency is): it returns the item's slot for
// the caller to fill in place, saving a copy.
func (q *queue) pushNear(at int64) *slot {
	q.seq++
	return q.slotIn(&q.buckets[at&q.mask])
}

// slotIn returns a new slot at the end of bk.
func (q *queue) slotIn(bk *bucket) *slot {
	if bk.tail == nil || bk.w == len(bk.tail.slots) {
		q.extend(bk)
	}
	e := &bk.tail.slots[bk.w]
	bk.w++
	q.inWheel++
	return e
}

// extend gives bk a new empty tail chunk.
func (q *queue) extend(bk *bucket) {
	c := q.free
	if c != nil {
		q.free, c.next = c.next, nil
	} else {
		n := min(max(q.grown, minChunk), maxChunk)
		q.grown += n
		c = &chunk{slots: make([]slot, n)}
	}
	if bk.tail == nil {
		bk.head, bk.r = c, 0
	} else {
		bk.tail.next = c
	}
	bk.tail, bk.w = c, 0
}

// recycle puts c on the free list. Its slots hold no references: pop
// clears each slot's message once the slot has been handled.
func (q *queue) recycle(c *chunk) {
	c.next, q.free = q.free, c
}

// take returns the next slot of bk, or nil if bk is empty. An emptied
// bucket keeps a small chunk for its next tick and frees a large one.
func (q *queue) take(bk *bucket) *slot {
	for c := bk.head; c != nil; c = bk.head {
		if c == bk.tail {
			if bk.r < bk.w {
				bk.r++
				return &c.slots[bk.r-1]
			}
			if len(c.slots) <= minChunk {
				bk.r, bk.w = 0, 0
			} else {
				q.recycle(c)
				*bk = bucket{}
			}
			return nil
		}
		if bk.r < len(c.slots) {
			bk.r++
			return &c.slots[bk.r-1]
		}
		bk.head, bk.r = c.next, 0
		q.recycle(c)
	}
	return nil
}

// pop returns the next item in (at, seq) order, or nil if there is none,
// and advances q.now to it. The slot it points to is valid until the next
// pop.
func (q *queue) pop() *slot {
	if q.last != nil {
		q.last.msg = nil // drop the reference for the GC
	}
	// The common case first: the next item of this tick's head chunk.
	bk := &q.buckets[q.now&q.mask]
	if c := bk.head; c != nil && q.nextAt != q.now {
		if bk.r < bk.headEnd() {
			it := &c.slots[bk.r]
			bk.r++
			q.inWheel--
			q.last = it
			return it
		}
	}
	for {
		if q.nextAt == q.now {
			q.tmp = slot{from: slotScript, to: int32(q.script[q.next].Node), aux: int64(q.next)}
			q.next++
			q.nextAt = q.scriptAt(q.next)
			q.last = &q.tmp
			return &q.tmp
		}
		if it := q.take(&q.buckets[q.now&q.mask]); it != nil {
			q.inWheel--
			q.last = it
			return it
		}
		switch {
		case q.inWheel > 0:
			q.now++
		case len(q.far) > 0:
			q.now = min(q.far[0].at, q.nextAt)
		case q.nextAt != noScript:
			q.now = q.nextAt
		default:
			return nil
		}
		for len(q.far) > 0 && q.far[0].at <= q.now+q.mask {
			it := q.farPop()
			q.add(&q.buckets[it.at&q.mask], &it.slot)
		}
	}
}

func (a *farItem) less(b *farItem) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func (q *queue) farPush(it farItem) {
	h := append(q.far, it)
	j := len(h) - 1
	for j > 0 {
		i := (j - 1) / 2
		if !h[j].less(&h[i]) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
	q.far = h
}

func (q *queue) farPop() farItem {
	h := q.far
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h[n] = farItem{}
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		j := l
		if r := l + 1; r < n && h[r].less(&h[l]) {
			j = r
		}
		if !h[j].less(&h[i]) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
	q.far = h
	return top
}

// ahead returns how many slots of the current tick's bucket are left to
// pop in its head chunk, and those slots.
func (q *queue) ahead() []slot {
	bk := &q.buckets[q.now&q.mask]
	if bk.head == nil {
		return nil
	}
	return bk.head.slots[bk.r:bk.headEnd()]
}

// headEnd returns where the slots to read in bk's head chunk end: where
// the chunk ends, or where writing is in the tail. bk.head is not nil.
func (bk *bucket) headEnd() int {
	if bk.head == bk.tail {
		return bk.w
	}
	return len(bk.head.slots)
}
