package statespace

import (
	"runtime"
	"sync/atomic"
)

// ballastSize is the pointer-free allocation a search holds once it has
// found ballastFrom states, never written. The search keeps its tables off the Go heap
// (slab.go), so little on the heap is live, and the collector (which
// starts a cycle when the heap has grown by what is live, GOGC=100)
// would run every few MiB of the steps' garbage. The ballast counts as
// live for the pacer, so cycles come at least this much garbage apart,
// while its pages, never written, take no memory; the figures leave it
// out. BenchmarkCheck/algo=lamport-tla/impl=baseline/workers=1 (963,723
// states): GAIN. A ballast of 0 is the plain version.
const ballastSize = 64 << 20

// ballastFrom is the states from which a search takes a ballast: a small
// search does not pay for zeroing it (a ballast freed and made again
// comes from reused pages).
const ballastFrom = 1 << 17

// ballasts is the bytes of ballast the running searches hold.
var ballasts atomic.Int64

// holdBallast takes a ballast for a search; the func returned lets it go.
func holdBallast() func() {
	if ballastSize == 0 {
		return func() {}
	}
	b := make([]byte, ballastSize)
	ballasts.Add(ballastSize)
	return func() {
		ballasts.Add(-ballastSize)
		runtime.KeepAlive(b)
	}
}
