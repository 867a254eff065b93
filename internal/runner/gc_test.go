package runner

import (
	"runtime/debug"
	"testing"
)

// A big live run turns the pacer off with a memory limit, and puts both
// back; a small one, or one whose environment sets GOGC or GOMEMLIMIT,
// leaves them alone.
func TestBigRunGC(t *testing.T) {
	settings := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1) // a negative limit reads it
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	p0, l0 := settings()

	restore := bigRunGC(bigRun-1, liveNodeSize)
	if p, l := settings(); p != p0 || l != l0 {
		t.Errorf("a small run changed GC to %d%%, limit %d", p, l)
	}
	restore()

	restore = bigRunGC(1_000_000, liveNodeSize)
	p, l := settings()
	if want := int64(2 * (1_000_000*liveNodeSize + 1<<30)); p != -1 || l != want {
		t.Errorf("a million-node run: GC %d%%, limit %d; want off, %d", p, l, want)
	}
	restore()
	if p, l := settings(); p != p0 || l != l0 {
		t.Errorf("not restored: GC %d%%, limit %d; want %d%%, %d", p, l, p0, l0)
	}

	t.Setenv("GOGC", "100")
	restore = bigRunGC(1_000_000, liveNodeSize)
	if p, l := settings(); p != p0 || l != l0 {
		t.Errorf("GOGC set: GC %d%%, limit %d; want them untouched (%d%%, %d)", p, l, p0, l0)
	}
	restore()
}
