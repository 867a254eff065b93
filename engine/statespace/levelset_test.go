package statespace

import (
	"context"
	"math/rand/v2"
	"testing"

	"go.uber.org/goleak"
)

// The level-local table holds exactly the states put in it since its
// level began, each with its record number, whatever it held for earlier
// levels and however it grew; merged, they join the visited set with
// their numbers.
func TestLevelSetAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	l := newLevelSet()
	defer l.free()
	f := newFPSet(true)
	defer f.free()
	all := map[uint64]int32{}
	base := int32(1)
	for level, size := range []int{10, 3000, 5, 700, 0, 2000} {
		l.begin(base)
		here := map[uint64]int32{}
		for i := range size {
			fp := r.Uint64() >> uint(r.IntN(60)) // some small, and now and then 0
			if i == 3 {
				fp = 0
			}
			fp = max(fp, 1) // as the tables store it
			if _, dup := all[fp]; dup {
				continue
			}
			if _, ok := here[fp]; ok {
				continue
			}
			rec := base + int32(len(here))
			l.put(fp, rec)
			here[fp] = rec
		}
		for fp, rec := range here {
			if got, ok := l.get(fp); !ok || got != rec {
				t.Fatalf("level %d: fingerprint %x: %d, %v; want %d", level, fp, got, ok, rec)
			}
		}
		for fp := range all {
			if _, ok := l.get(fp); ok {
				t.Fatalf("level %d: fingerprint %x of an earlier level found", level, fp)
			}
		}
		var hits int
		l.hits = 7
		l.mergeInto(f, nil, &hits)
		if hits != 7 || l.hits != 0 {
			t.Errorf("level %d: %d hits merged, %d left; want 7 and 0", level, hits, l.hits)
		}
		for fp, rec := range here {
			all[fp] = rec
		}
		base += int32(len(here))
	}
	if f.n != len(all) {
		t.Errorf("%d fingerprints merged, want %d", f.n, len(all))
	}
	if len(l.slots.raw) == 0 {
		t.Errorf("%d slots, all on the heap: the test is to grow the table off it", len(l.slots.s)/2)
	}
	for fp, rec := range all {
		if got, ok := f.get(fp); !ok || got != rec {
			t.Fatalf("merged fingerprint %x: %d, %v; want %d", fp, got, ok, rec)
		}
	}
}

// A parallel search finds a state that two parents of one level reach
// (two greetings sent in either order) once: with the reduction in the
// level-local table, and after the merge in the visited set; without it
// (no level-local table) in the visited set. The same counts and the same
// depth as on one worker, with fingerprints and with whole keys
// (Config.Exact).
func TestWorkersFindALevelsStatesOnce(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, por := range []bool{false, true} {
		for _, exact := range []bool{false, true} {
			var want Result
			for _, w := range []int{1, 2, 3} {
				cfg := greeters(4, false)
				hits := 0
				cfg.POR, cfg.Exact, cfg.Workers, cfg.levelHits = por, exact, w, &hits
				res, err := Search(context.Background(), cfg)
				if err != nil || !res.Exhausted {
					t.Fatalf("por=%v exact=%v workers=%d: exhausted %v (%v)", por, exact, w, res.Exhausted, err)
				}
				if w == 1 {
					want = res
					if hits != 0 {
						t.Errorf("por=%v exact=%v: one worker counted %d level hits", por, exact, hits)
					}
					continue
				}
				if (hits > 0) != (por && levelLocal) {
					t.Errorf("por=%v exact=%v workers=%d: %d states found again in the level-local table", por, exact, w, hits)
				}
				if res.Distinct != want.Distinct || res.Explored != want.Explored || res.Transitions != want.Transitions ||
					res.Terminal != want.Terminal || res.Depth != want.Depth || res.Reduced != want.Reduced {
					t.Errorf("por=%v exact=%v workers=%d: %+v\nwant %+v", por, exact, w, res, want)
				}
			}
		}
	}
}
