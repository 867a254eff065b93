package blockingqueue

import (
	"errors"
	"fmt"
	"sync"
)

// ErrDeadlock is returned to every goroutine using a CondQueue once its
// deadlock check found all of them asleep with nobody left to wake them.
var ErrDeadlock = errors.New("deadlock: every producer and consumer is waiting")

// ErrInterrupted is returned by Put and Take once Interrupt was called.
var ErrInterrupted = errors.New("interrupted")

// Roles, as indexes.
const (
	producer = 0 // waits for room
	consumer = 1 // waits for an item
)

// CondQueue is a bounded FIFO queue of ints built with a mutex and
// sync.Cond, the chapter's blocking queue (wait/notify). Producers wait on
// "not full", consumers on "not empty". It can be built three ways:
//
//   - two conds, Signal: each side wakes only the other side. Correct.
//   - one shared cond, Broadcast (notifyAll): wakes everybody; the wrong
//     side re-checks and sleeps again. Correct.
//   - one shared cond, Signal (notify): may wake the wrong side, which
//     re-checks and sleeps again, and the wake-up is lost: the trap.
//
// It also counts who is asleep on which cond, so it can tell, exactly, when
// every live goroutine is asleep and no wake-up is pending: a deadlock
// nobody can end. Then it wakes them all with ErrDeadlock. Create it with
// NewCondQueue; it must not be copied.
type CondQueue struct {
	mu        sync.Mutex
	conds     [2]*sync.Cond // by role; both the same cond when shared
	broadcast bool          // wake with Broadcast instead of Signal

	buf         []int
	head, count int
	total       int // items to be moved in all
	taken       int

	live        int                // producers and consumers not yet done
	asleep      map[*sync.Cond]int // asleep on each cond, wake-ups already sent subtracted
	waiting     [2]int             // by role, inside a wait (for the report)
	deadlocked  bool
	report      string // the state when the deadlock was found
	interrupted bool   // Interrupt was called: every Put and Take gives up
}

// Interrupt makes every Put and Take, waiting or to come, return
// ErrInterrupted (Ctrl-C): the goroutines unwind and can be joined.
func (q *CondQueue) Interrupt() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.interrupted = true
	for _, c := range q.conds {
		q.asleep[c] = 0
		c.Broadcast()
	}
}

// NewCondQueue returns a queue of capacity for producers+consumers
// goroutines that will move total items. shared selects one cond for both
// sides; broadcast selects Broadcast over Signal.
func NewCondQueue(capacity, producers, consumers, total int, shared, broadcast bool) *CondQueue {
	q := &CondQueue{buf: make([]int, capacity), total: total, live: producers + consumers, broadcast: broadcast, asleep: map[*sync.Cond]int{}}
	q.conds[producer] = sync.NewCond(&q.mu)
	q.conds[consumer] = q.conds[producer]
	if !shared {
		q.conds[consumer] = sync.NewCond(&q.mu)
	}
	return q
}

// Put adds v, waiting while the queue is full.
func (q *CondQueue) Put(v int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.interrupted {
		return ErrInterrupted
	}
	for q.count == len(q.buf) {
		if err := q.wait(producer); err != nil {
			return err
		}
	}
	q.buf[(q.head+q.count)%len(q.buf)] = v
	q.count++
	q.wake(consumer)
	return nil
}

// Take removes the oldest item, waiting while the queue is empty; ok is
// false once all the items have been taken.
func (q *CondQueue) Take() (v int, ok bool, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.interrupted {
		return 0, false, ErrInterrupted
	}
	for q.count == 0 {
		if q.taken == q.total {
			return 0, false, nil
		}
		if err := q.wait(consumer); err != nil {
			return 0, false, err
		}
	}
	v = q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.count--
	q.taken++
	q.wake(producer)
	if q.taken == q.total { // end of stream: every waiting consumer must see it
		q.asleep[q.conds[consumer]] = 0
		q.conds[consumer].Broadcast()
	}
	return v, true, nil
}

// ProducerDone tells the queue that one producer has finished.
func (q *CondQueue) ProducerDone() { q.done() }

// ConsumerDone tells the queue that one consumer has finished.
func (q *CondQueue) ConsumerDone() { q.done() }

func (q *CondQueue) done() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.live--
	q.checkDeadlock()
}

// wait sleeps on role's cond; q.mu is held.
func (q *CondQueue) wait(role int) error {
	c := q.conds[role]
	q.asleep[c]++
	q.waiting[role]++
	defer func() { q.waiting[role]-- }()
	if q.checkDeadlock() {
		q.asleep[c]--
		return ErrDeadlock
	}
	c.Wait()
	switch {
	case q.deadlocked:
		return ErrDeadlock
	case q.interrupted:
		return ErrInterrupted
	}
	return nil
}

// wake wakes a waiter of role (or all of them) and records that the wake-up
// is on its way; q.mu is held.
func (q *CondQueue) wake(role int) {
	c := q.conds[role]
	if q.broadcast {
		q.asleep[c] = 0
		c.Broadcast()
		return
	}
	if q.asleep[c] > 0 {
		q.asleep[c]--
	}
	c.Signal()
}

// checkDeadlock reports (and acts on) "every live goroutine asleep, no
// wake-up pending"; q.mu is held.
func (q *CondQueue) checkDeadlock() bool {
	if q.deadlocked {
		return true
	}
	if q.interrupted { // the goroutines are unwinding, not stuck
		return false
	}
	asleep := 0
	for _, n := range q.asleep {
		asleep += n
	}
	if q.live == 0 || asleep < q.live {
		return false
	}
	q.deadlocked = true
	q.report = fmt.Sprintf("queue holds %d of %d, %d of %d items taken; asleep: %d producer(s) waiting for room, %d consumer(s) waiting for an item",
		q.count, len(q.buf), q.taken, q.total, q.waiting[producer], q.waiting[consumer])
	if q.count < len(q.buf) && q.waiting[producer] > 0 {
		q.report += " (there IS room: the wake-up meant for a producer went to a consumer)"
	} else if q.count > 0 && q.waiting[consumer] > 0 {
		q.report += " (there IS an item: the wake-up meant for a consumer went to a producer)"
	}
	for c := range q.asleep {
		c.Broadcast() // release everybody so the program can unwind
	}
	return true
}

// Report describes the queue's state when the deadlock was found ("" if none).
func (q *CondQueue) Report() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.report
}
