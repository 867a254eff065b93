package statespace

import (
	"context"
	"testing"

	"go.uber.org/goleak"
)

// Where several shortest paths reach a violation, every worker count
// reports the same one: the first in the one-worker breadth-first order
// (the lowest parent in its level, then the lowest transition in enabled
// order). In the all-to-all greeting, node 1 sees node 3's greeting first
// after 4 steps whether node 2 or node 3 starts first: the path starts
// with node 2's command (c2), the lower of the two.
func TestWorkersBreakTiesAsOneWorker(t *testing.T) {
	defer goleak.VerifyNone(t)
	// the tie: from the state c3 reaches, 3 more steps suffice too
	staged := greeters(3, true)
	staged.From = []Trans{{Kind: Command, Node: 3}}
	r, err := Search(context.Background(), staged)
	if err != nil || r.Violation == nil || len(r.Path) != 3 {
		t.Fatalf("from c3: %v after %s (%v), want a violation in 3 steps", r.Violation, FormatPath(r.Path), err)
	}
	var want string
	for _, por := range []bool{false, true} {
		for _, w := range []int{1, 2, 4} {
			cfg := greeters(3, true)
			cfg.POR, cfg.Workers = por, w
			r, err := Search(context.Background(), cfg)
			if err != nil || r.Violation == nil || r.Workers != w {
				t.Fatalf("por=%v workers=%d: %v, %v, %d workers", por, w, r.Violation, err, r.Workers)
			}
			got := FormatPath(r.Path)
			if len(r.Path) != 4 || r.Path[0] != (Trans{Kind: Command, Node: 2}) {
				t.Errorf("por=%v workers=%d: %s, want 4 steps from c2", por, w, got)
			}
			if want == "" {
				want = got
			} else if got != want {
				t.Errorf("por=%v workers=%d: %s, want %s", por, w, got, want)
			}
		}
	}
}

// A search stopped short reports the depth it fully covered, whatever
// its workers; a search that needs one goroutine (liveness) says so.
func TestWorkersCoverAndFallBack(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, w := range []int{1, 2} {
		cfg := greeters(4, false)
		cfg.Workers, cfg.MaxStates = w, 40
		r, err := Search(context.Background(), cfg)
		if err != nil || r.Stop != "max-states" {
			t.Fatalf("workers=%d: stop %q, %v", w, r.Stop, err)
		}
		if r.Covered < 1 || r.Covered >= r.Depth {
			t.Errorf("workers=%d: covered %d with depth %d: want every level up to one short of the deepest", w, r.Covered, r.Depth)
		}
	}
	cfg := greeters(3, false)
	cfg.Workers, cfg.Liveness = 2, true
	if r, err := Search(context.Background(), cfg); err != nil || r.Workers != 1 {
		t.Errorf("liveness: %d workers (%v), want 1", r.Workers, err)
	}
}

// A parallel search finds a state that two parents of one level reach
// (two greetings sent in either order) once: the same counts and the same
// depth as on one worker, with and without the reduction, with
// fingerprints and with whole keys (Config.Exact).
func TestWorkersFindALevelsStatesOnce(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, por := range []bool{false, true} {
		for _, exact := range []bool{false, true} {
			var want Result
			for _, w := range []int{1, 2, 3} {
				cfg := greeters(4, false)
				cfg.POR, cfg.Exact, cfg.Workers = por, exact, w
				res, err := Search(context.Background(), cfg)
				if err != nil || !res.Exhausted {
					t.Fatalf("por=%v exact=%v workers=%d: exhausted %v (%v)", por, exact, w, res.Exhausted, err)
				}
				if w == 1 {
					want = res
					continue
				}
				if res.Distinct != want.Distinct || res.Explored != want.Explored || res.Transitions != want.Transitions ||
					res.Terminal != want.Terminal || res.Depth != want.Depth || res.Reduced != want.Reduced {
					t.Errorf("por=%v exact=%v workers=%d: %+v\nwant %+v", por, exact, w, res, want)
				}
			}
		}
	}
}
