package counter

import (
	"context"
	"sync"
	"sync/atomic"
)

// Counter is ONE counter shared by many goroutines. Inc adds one and returns
// the new value. If inside is not nil, Inc calls it with the new value while
// still inside the critical section, so calls to inside are serialized and see
// the values in increasing order; implementations without a critical section
// (atomic, unsafe) refuse inside (see SupportsInside).
type Counter interface {
	Inc(inside func(v int64)) int64
	Value() int64
}

// MutexCounter guards its value with a sync.Mutex: the "synchronized" counter.
// The zero value is ready to use; it must not be copied after first use.
type MutexCounter struct {
	mu sync.Mutex
	n  int64
}

// Inc implements Counter.
func (c *MutexCounter) Inc(inside func(int64)) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if inside != nil {
		inside(c.n)
	}
	return c.n
}

// Value implements Counter.
func (c *MutexCounter) Value() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// AtomicCounter is a sync/atomic integer (Java's AtomicInteger): one
// indivisible read-modify-write, no lock, and so no critical section to print
// inside. The zero value is ready to use; it must not be copied.
type AtomicCounter struct{ n atomic.Int64 }

// Inc implements Counter; inside must be nil.
func (c *AtomicCounter) Inc(inside func(int64)) int64 {
	if inside != nil {
		panic("counter: AtomicCounter has no critical section to run inside in")
	}
	return c.n.Add(1)
}

// Value implements Counter.
func (c *AtomicCounter) Value() int64 { return c.n.Load() }

// ChanCounter is owned by one goroutine: the value lives in that goroutine's
// local variable and others ask it to increment by message ("share memory by
// communicating"). Create it with NewChanCounter and Close it to stop and
// join the owner.
type ChanCounter struct {
	reqs chan func(int64) // an increment request; the func runs in the owner
	vals chan int64       // the owner's reply to each request, in order
	stop context.CancelFunc
	done chan int64 // the final value, when the owner has stopped
}

// NewChanCounter starts the owner goroutine; it stops when ctx ends or on Close.
func NewChanCounter(ctx context.Context) *ChanCounter {
	ctx, stop := context.WithCancel(ctx)
	c := &ChanCounter{reqs: make(chan func(int64)), vals: make(chan int64), stop: stop, done: make(chan int64, 1)}
	go c.own(ctx)
	return c
}

func (c *ChanCounter) own(ctx context.Context) {
	var n int64 // only this goroutine ever touches n
	defer func() { c.done <- n }()
	for {
		select {
		case inside := <-c.reqs:
			n++
			if inside != nil {
				inside(n)
			}
			c.vals <- n // the requester is waiting for its reply
		case <-ctx.Done():
			return
		}
	}
}

// Inc implements Counter. It must not be called after Close.
func (c *ChanCounter) Inc(inside func(int64)) int64 {
	c.reqs <- inside
	return <-c.vals
}

// Value returns the final value; call it after Close.
func (c *ChanCounter) Value() int64 {
	v := <-c.done
	c.done <- v
	return v
}

// Close stops the owner goroutine and waits for it.
func (c *ChanCounter) Close() {
	c.stop()
	v := <-c.done
	c.done <- v
}
