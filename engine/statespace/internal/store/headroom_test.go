package store

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// The GC percent puts the next collection at headroom bytes of garbage
// over the live heap, never below the user's percent; the memory limit
// caps the heap at live + max(live, headroom) and a slack, never above
// the user's limit.
func TestHeadroomPolicy(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, headroom int64
		base, want     int
	}{
		{16 * mib, 64 * mib, 100, 400},
		{128 * mib, 64 * mib, 100, 100}, // more live than headroom: the default
		{16 * mib, 64 * mib, 800, 800},  // the user's percent is higher
		{16 * mib, 64 * mib, -1, -1},    // collection off stays off
		{16 * mib, 0, 100, 100},
		{0, 64 * mib, 100, 6400}, // no collection yet: live counts as 1 MiB
	} {
		if got := gcPercent(c.live, c.headroom, c.base); got != c.want {
			t.Errorf("gcPercent(%d, %d, %d) = %d, want %d", c.live, c.headroom, c.base, got, c.want)
		}
	}
	if HeadroomFor(headroomFrom-1) != 0 || HeadroomFor(headroomFrom) != headroomMax {
		t.Errorf("headroomFor(%d), headroomFor(%d) = %d, %d; want 0, %d", headroomFrom-1, headroomFrom,
			HeadroomFor(headroomFrom-1), HeadroomFor(headroomFrom), headroomMax)
	}
	if got, want := memLimit(16*mib, 64*mib, math.MaxInt64), int64(16*mib+64*mib+limitSlack); got != want {
		t.Errorf("memLimit(16 MiB, 64 MiB) = %d, want %d", got, want)
	}
	if got, want := memLimit(128*mib, 64*mib, math.MaxInt64), int64(256*mib+limitSlack); got != want {
		t.Errorf("memLimit(128 MiB, 64 MiB) = %d, want %d", got, want)
	}
	if got := memLimit(16*mib, 64*mib, 50*mib); got != 50*mib {
		t.Errorf("memLimit under a user's limit of 50 MiB = %d", got)
	}
}

// Holding headroom raises the GC percent and sets a memory limit (within
// the user's), through collections; the last search to let go restores
// the user's settings.
func TestHeadroomRestores(t *testing.T) {
	oldPct := debug.SetGCPercent(150)
	oldLim := debug.SetMemoryLimit(8 << 30)
	defer func() {
		debug.SetGCPercent(oldPct)
		debug.SetMemoryLimit(oldLim)
	}()
	a := HoldHeadroom(64 << 20)
	b := HoldHeadroom(64 << 20)
	runtime.GC()
	runtime.GC()
	pct := debug.SetGCPercent(-1)
	debug.SetGCPercent(pct)
	if lim := debug.SetMemoryLimit(-1); pct <= 150 || lim >= 8<<30 {
		t.Errorf("while held: GC percent %d, memory limit %d; want above 150, below 8 GiB", pct, lim)
	}
	a()
	b()
	pct = debug.SetGCPercent(-1) // collection off: the limit stays the user's
	c := HoldHeadroom(64 << 20)
	runtime.GC()
	if lim := debug.SetMemoryLimit(-1); lim != 8<<30 {
		t.Errorf("with collection off: memory limit %d, want the user's 8 GiB", lim)
	}
	c()
	debug.SetGCPercent(pct)
	pct = debug.SetGCPercent(oldPct)
	if lim := debug.SetMemoryLimit(-1); pct != 150 || lim != 8<<30 {
		t.Errorf("after: GC percent %d, memory limit %d; want 150 and 8 GiB", pct, lim)
	}
}
