package counter

// QUARANTINE: this file is a data race on purpose. It is the counter students
// write first: a plain int read and written by many goroutines with no
// synchronization. It exists so the lesson can show lost updates and the race
// detector has something real to report (see the README, "Race-detector
// curriculum"). Its tests run it only in a subprocess built with -race, or
// skip it when this test binary has the detector on. Do not copy it.

import "runtime"

// UnsafeCounter is the broken counter: Inc is read, yield, write. The yield
// (runtime.Gosched) stands for anything that lets another goroutine run
// between the read and the write (a preemption, a second CPU); it makes the
// lost updates show at every size instead of only on a busy machine.
type UnsafeCounter struct{ n int64 }

// Inc implements Counter, badly; inside must be nil.
func (c *UnsafeCounter) Inc(inside func(int64)) int64 {
	if inside != nil {
		panic("counter: UnsafeCounter has no critical section to run inside in")
	}
	v := c.n // read ...
	runtime.Gosched()
	c.n = v + 1 // ... and write back: another goroutine's write in between is lost
	return c.n
}

// Value implements Counter.
func (c *UnsafeCounter) Value() int64 { return c.n }
