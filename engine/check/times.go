package check

import (
	"strconv"

	"ringlab/engine/trace"
)

// Timer is a Property whose texts give times of the run: Set.SetTimes gives
// it the run's way of writing them (ticks as numbers, a live or broker
// run's nanoseconds with a unit), as the text output writes them.
type Timer interface {
	// SetTimes gives the property the run's way of writing time t.
	SetTimes(format func(t int64) string)
}

// Times is embedded by properties that write times; without SetTimes a time
// is a number.
type Times struct{ format func(int64) string }

// SetTimes sets how times are written.
func (x *Times) SetTimes(format func(t int64) string) { x.format = format }

// Time writes time t of the run.
func (x *Times) Time(t int64) string {
	if x.format == nil {
		return strconv.FormatInt(t, 10)
	}
	return x.format(t)
}

// SetTimes gives every property of s that writes times the run's format:
// that of a run on runtime (see trace.Header.FormatTime).
func (s *Set) SetTimes(runtime string) {
	h := &trace.Header{Runtime: runtime}
	for _, c := range s.Properties {
		if t, ok := c.(Timer); ok {
			t.SetTimes(h.FormatTime)
		}
	}
}
