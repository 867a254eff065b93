//go:build unix

package signal

import (
	"syscall"
	"time"
)

// CPUTime returns the user+system CPU time this whole process has used so far
// (getrusage RUSAGE_SELF: every thread, including the runtime's own).
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
