package store

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A search keeps its tables off the Go heap (slab.go), so little on the
// heap is live, and the collector (which starts a cycle when the heap has
// grown by what is live, GOGC=100) would run every few MiB of the steps'
// garbage. So a search asks for headroom: while it holds some, the GC
// percent is raised after every collection so that the next one comes
// when the garbage reaches the headroom (or what is live, if more):
// the heap goal is live + max(live, headroom).
//
// The memory limit set beside the percent caps the heap when the live
// heap jumps between two collections.
//
// A ballast (a pointer-free allocation counted as live by the pacer)
// would space the collections as well, but made again as it grows it
// comes from pages the heap has used and is zeroed, so it stays resident
// (67 MB at 10 million states), and the garbage it allows is the live
// heap and the ballast, twice a large live heap. Peak RSS at 10 million
// states (GOMAXPROCS=1 ringlab mutex check ricart-agrawala --nodes 4
// --requests 1 --max-states 10000000 --workers 1 --por=false): 311,044
// to 376,272 KB over four runs with a 64 MiB ballast, 262,260 KB with
// this headroom (the other tables as they were). headroomMax = 0 is the
// plain version (GOGC and GOMEMLIMIT as the user set them).
const headroomMax = 64 << 20

// headroomFrom is the states from which a search asks for headroom: a
// small search keeps the collector's default.
const headroomFrom = 1 << 17

// HeadroomFor is the headroom for a search of distinct states:
// headroomMax from headroomFrom states on (0: none). It does not follow
// the tables' size: the garbage comes from the steps, at the same rate in
// a small search as in a large one, and a headroom of twice the tables
// (16 MiB on TLC's configuration, GOMAXPROCS=1 ringlab mutex check
// lamport --nodes 3 --clock requests --requests 0 --max-clock 6
// --workers 1 --por=false) made 179 collections of it instead of 108.
func HeadroomFor(distinct int64) int64 {
	if distinct < headroomFrom {
		return 0
	}
	return headroomMax
}

// gcPercent is the GC percent that makes the collector start when the
// garbage reaches headroom bytes over a live heap of live bytes, never
// below base (the percent the user set; negative, collection off, is
// left alone).
func gcPercent(live, headroom int64, base int) int {
	if base < 0 || headroom <= 0 {
		return base
	}
	live = max(live, 1<<20)
	return max(base, int(min(100*headroom/live, 1<<20)))
}

// tuner holds the headroom of the running searches (the sum) and the GC
// percent in force before the first of them asked for some, which the
// last to let go restores. While a search holds headroom a cleanup
// attached to a sentinel object runs after each collection (runtime
// cleanups run on the runtime's own goroutine) and sets the percent for
// the live heap it measured; gen ends a chain of them when the last
// holder lets go.
var tuner struct {
	mu       sync.Mutex
	headroom int64
	holders  int
	base     int   // the GC percent before the first hold
	limit    int64 // the memory limit before the first hold
	set      int
	gen      int
}

// liveSample reads the heap the last collection found live.
var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// HoldHeadroom asks for n bytes of headroom; the func returned lets it
// go.
func HoldHeadroom(n int64) func() {
	tuner.mu.Lock()
	defer tuner.mu.Unlock()
	if tuner.holders == 0 {
		tuner.base = debug.SetGCPercent(100)
		tuner.set = 100
		tuner.limit = debug.SetMemoryLimit(-1)
		tuner.gen++
		armTuner(tuner.gen)
	}
	tuner.holders++
	tuner.headroom += n
	retune()
	return func() {
		tuner.mu.Lock()
		defer tuner.mu.Unlock()
		tuner.headroom -= n
		tuner.holders--
		if tuner.holders == 0 {
			tuner.gen++
			debug.SetGCPercent(tuner.base)
			debug.SetMemoryLimit(tuner.limit)
			return
		}
		retune()
	}
}

// retune sets the GC percent for the live heap last measured; tuner.mu
// is held.
func retune() {
	metrics.Read(liveSample)
	live := int64(0)
	if liveSample[0].Value.Kind() == metrics.KindUint64 {
		live = int64(liveSample[0].Value.Uint64())
	}
	if p := gcPercent(live, tuner.headroom, tuner.base); p != tuner.set {
		tuner.set = p
		debug.SetGCPercent(p)
	}
	if tuner.base >= 0 { // with collection off, a limit would start it
		debug.SetMemoryLimit(memLimit(live, tuner.headroom, tuner.limit))
	}
}

// limitSlack is what the runtime holds besides the heap's objects (stacks,
// metadata, spans partly used), give or take, in the memory limit.
const limitSlack = 16 << 20

// memLimit is the memory limit under which the heap goal stays after a
// collection found live bytes live, with headroom bytes for garbage,
// never above the user's limit: a cap for the cycles in which the live
// heap jumps (the objects allocated while the collector marks count as
// live, a few to 20 MB at a time), as the percent set for the last live
// heap would multiply the jump.
func memLimit(live, headroom, user int64) int64 {
	live = max(live, 1<<20)
	return min(user, live+max(live, headroom)+limitSlack)
}

// sentinel is an object the collector frees at its next cycle.
type sentinel struct {
	_ *int // a pointer: not a tiny allocation (whose cleanup may never run)
	_ [2]uint64
}

// armTuner attaches to a new sentinel a cleanup that retunes after the
// next collection and arms again, until the generation changes.
func armTuner(gen int) {
	runtime.AddCleanup(new(sentinel), func(gen int) {
		tuner.mu.Lock()
		defer tuner.mu.Unlock()
		if gen != tuner.gen {
			return
		}
		retune()
		armTuner(gen)
	}, gen)
}
