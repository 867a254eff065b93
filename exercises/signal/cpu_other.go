//go:build !unix

package signal

import "time"

// CPUTime is not measured on this platform.
func CPUTime() (time.Duration, bool) { return 0, false }
