package runner

import (
	"os"
	"runtime/debug"
)

// Garbage collection for big runs.
//
// A live run starts a goroutine per node at once. On a million nodes the
// Go collector, paced for the small heap the run had before, starts a cycle
// mid-spawn: it must scan every stack that exists by then, and the
// goroutines that allocate meanwhile (the spawner above all) pay for it in
// assists. Measured on the million-node Chang-Roberts: 2-3 s of CPU in a
// 10-12 s run, for a heap that is nearly all live state (node states,
// goroutines, stacks) and makes little garbage. A simulator run is smaller,
// but its setup still paid ~0.1 s of collection in a 1.3-1.5 s run.
//
// So, like the Go compiler, which sizes its collector to its job, a run of
// bigRun nodes or more turns the pacer off (GOGC=off) for its duration,
// with a memory limit as the safety net: the collector still runs, but only
// when the process nears the limit, twice a generous estimate of what the
// run must hold (a per-node figure for the runtime, plus 1 GiB). An explicit
// GOGC or GOMEMLIMIT in the environment wins: then nothing is changed.
const (
	bigRun       = 100_000
	liveNodeSize = 4 << 10 // a goroutine, its stack, inbox and node
	simNodeSize  = 1 << 10 // a node's state and its messages in flight
)

// BigRunGC applies the policy above to a run of n nodes on runtime ("sim"
// or "live") and returns the function that restores the previous settings.
// Execute applies it for the run; a command may apply it earlier, before
// it builds a big run's spec, so that the building runs under it too (the
// settings Execute then restores are the command's, the same).
func BigRunGC(n int, runtime string) (restore func()) {
	size := int64(simNodeSize)
	if runtime == "live" {
		size = liveNodeSize
	}
	return bigRunGC(n, size)
}

// bigRunGC applies the policy above for a run of n nodes of perNode bytes
// each and returns the function that restores the previous settings. The
// settings are the process's: two big runs overlapping in one process
// (the CLI never does it) could restore them out of order.
func bigRunGC(n int, perNode int64) (restore func()) {
	if n < bigRun || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := 2 * (int64(n)*perNode + 1<<30)
	prevLimit := debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}
