package sim

import (
	"container/heap"

	"ringlab/internal/node"
)

type itemKind uint8

const (
	itMsg itemKind = iota + 1
	itTimer
	itAction
)

// item is one pending delivery: a message, a timer firing, or an action.
// It is kept to 64 bytes because the wheel copies it on every message; what
// only some items need lives in side tables indexed by aux.
type item struct {
	at   int64
	seq  uint64
	msg  node.Msg
	lc   int64
	aux  int64 // timer: id<<32|generation; action: index in sim.cmds; message: index in sim.vcs (with vector clocks)
	from int32
	to   int32
	kind itemKind
}

func timerAux(id int, gen uint32) int64 { return int64(uint64(uint32(int32(id)))<<32 | uint64(gen)) }

func (it *item) timer() (id int, gen uint32) {
	return int(int32(uint64(it.aux) >> 32)), uint32(it.aux)
}

// queue orders items by (at, seq). Items due within the wheel's span sit in
// per-tick FIFO buckets; later ones wait in a heap and move into the wheel
// as time approaches. Because an item pushed into the heap for tick T is
// always older than any pushed straight into T's bucket, moving heap items
// in before the bucket is read keeps (at, seq) order exactly.
type queue struct {
	now     int64
	seq     uint64
	mask    int64
	buckets [][]item
	head    []int // read position per bucket
	inWheel int
	far     farHeap
}

func newQueue(span int64) *queue {
	w := int64(64)
	for w < 2*span {
		w *= 2
	}
	return &queue{mask: w - 1, buckets: make([][]item, w), head: make([]int, w)}
}

func (q *queue) push(it *item) {
	if it.at < q.now {
		it.at = q.now
	}
	it.seq = q.seq
	q.seq++
	if it.at <= q.now+q.mask {
		b := it.at & q.mask
		q.buckets[b] = append(q.buckets[b], *it)
		q.inWheel++
		return
	}
	heap.Push(&q.far, *it)
}

// pop returns the next item in (at, seq) order and advances q.now to it.
func (q *queue) pop() (item, bool) {
	for {
		b := q.now & q.mask
		if h := q.head[b]; h < len(q.buckets[b]) {
			it := q.buckets[b][h]
			q.buckets[b][h] = item{} // drop references for the GC
			q.head[b]++
			q.inWheel--
			return it, true
		}
		q.buckets[b], q.head[b] = q.buckets[b][:0], 0
		switch {
		case q.inWheel > 0:
			q.now++
		case len(q.far) > 0:
			q.now = q.far[0].at
		default:
			return item{}, false
		}
		for len(q.far) > 0 && q.far[0].at <= q.now+q.mask {
			it := heap.Pop(&q.far).(item)
			nb := it.at & q.mask
			q.buckets[nb] = append(q.buckets[nb], it)
			q.inWheel++
		}
	}
}

type farHeap []item

func (h farHeap) Len() int { return len(h) }
func (h farHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h farHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *farHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *farHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
