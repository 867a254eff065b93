// Package racebuild tells whether the binary was built with the race
// detector, so commands can refuse goroutine counts the detector cannot
// afford (it needs roughly 20 KB of shadow memory per goroutine).
package racebuild

import "fmt"

// MaxGoroutines is the largest goroutine count a command may start in a
// -race build: 100,000 goroutines already cost about 2 GB of shadow state.
const MaxGoroutines = 100_000

// Check returns an error when a -race build is asked for more goroutines
// than MaxGoroutines; flag names the flag that asked.
func Check(flag string, n int) error {
	if Enabled && n > MaxGoroutines {
		return fmt.Errorf("%s=%d is too many goroutines for a -race build (the detector needs ~20 KB each); use at most %d, or a binary built without -race", flag, n, MaxGoroutines)
	}
	return nil
}
