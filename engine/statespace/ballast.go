package statespace

import (
	"runtime"
	"sync/atomic"
)

// A search keeps its tables off the Go heap (slab.go), so little on the
// heap is live, and the collector (which starts a cycle when the heap has
// grown by what is live, GOGC=100) would run every few MiB of the steps'
// garbage. A ballast, a pointer-free allocation never written, counts as
// live for the pacer, so cycles come further apart, while its pages take
// no memory; the figures leave it out. Its size is twice the tables off
// the heap (a power of two), at most ballastMax. User CPU of TLC's
// configuration (GOMAXPROCS=1 ringlab mutex check lamport --nodes 3
// --clock requests --requests 0 --max-clock 6 --workers 1), medians of 5
// interleaved: 1.47 s with the reduction and 2.20 s without, against 1.54
// s and 2.47 s with the tables on the heap; with no ballast,
// BenchmarkCheck/algo=lamport-tla/impl=baseline/workers=1 took 5.4-5.8 s
// against 4.6-5.1 s (interleaved, a loaded machine). ballastMax = 0 is
// the plain version.
const ballastMax = 64 << 20

// ballastFrom is the states from which a search takes a ballast: a small
// search does not pay for zeroing it (a ballast freed and made again
// comes from reused pages).
const ballastFrom = 1 << 17

// ballasts is the bytes of ballast the running searches hold.
var ballasts atomic.Int64

// ballastFor is the ballast for a search of distinct states while mapped
// bytes are held off the heap: the least power of two from twice mapped,
// at most ballastMax (0: none).
func ballastFor(distinct, mapped int64) int64 {
	if ballastMax == 0 || distinct < ballastFrom || mapped < 1<<20 {
		return 0
	}
	n := int64(1 << 20)
	for n < 2*mapped && n < ballastMax {
		n *= 2
	}
	return n
}

// holdBallast takes a ballast of n bytes; the func returned lets it go.
func holdBallast(n int64) func() {
	b := make([]byte, n)
	ballasts.Add(n)
	return func() {
		ballasts.Add(-n)
		runtime.KeepAlive(b)
	}
}

// letBallastGo lets go of the search's ballast, if it holds one.
func (s *searcher) letBallastGo() {
	if s.ballast != nil {
		s.ballast()
		s.ballast, s.ballastN = nil, 0
	}
}
