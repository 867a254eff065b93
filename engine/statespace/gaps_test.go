package statespace_test

import (
	"maps"
	"os"
	"testing"

	"ringlab/engine/statespace"
)

// Narrowing the gaps below the second least clock (node.Climber:
// Maekawa's) is exact, as the whole reduction is: the unreduced graph's
// states map onto the reduced search's, each seen alike (terminal or not,
// the same transitions, the same violations, to corresponding
// successors), on Maekawa's finite spaces and the first levels of its
// infinite ones; and it merges states.
// (TestForgettingIsExactAndMerges compares the finite space of one request
// a node at N = 3 with every part on, the narrowing included.)
// RINGLAB_BIG=1 adds that space, deeper levels and two requests a node
// (about 15 s under -race).
func TestGapsAreExactAndMerge(t *testing.T) {
	cases := gapCases
	if os.Getenv("RINGLAB_BIG") == "1" {
		cases = append(cases, []spaceCase{
			{"maekawa", map[string]any{"nodes": 3, "requests": 1}, 0},
			{"maekawa", map[string]any{"nodes": 3, "requests": 2}, 14},
			{"maekawa", map[string]any{"nodes": 3, "requests": 0}, 14},
		}...)
	}
	exactAndMerges(t, "gaps", cases)
}

var gapCases = []spaceCase{
	{"maekawa", map[string]any{"nodes": 2, "requests": 0}, 18},
	{"maekawa", map[string]any{"nodes": 3, "requests": 0}, 11},
}

// The comparison above can fail: with every gap narrowed to one less than
// its bound (a reduction broken on purpose), the unreduced graph's states
// no longer map onto the reduced search's, on every one of the spaces.
func TestGapsNarrowedTooFarAreCaught(t *testing.T) {
	for _, tc := range gapCases {
		cfg := mutexConfig(t, tc.alg, tc.params, tc.depth)
		full, reduced, err := statespace.ShiftSpacesWithout(cfg, tc.depth, 2_000_000, "narrow-1")
		if err == nil && maps.Equal(full, reduced) {
			t.Errorf("%s %v: the broken narrowing passes", tc.alg, tc.params)
		}
		if err != nil {
			t.Logf("%s %v: %.120s", tc.alg, tc.params, err)
		} else {
			t.Logf("%s %v: %d mapped states, %d reduced", tc.alg, tc.params, len(full), len(reduced))
		}
	}
}

// With fault budgets the narrowing stays exact: a message lost on its way
// to the node left behind lowers its bound, a crash takes its clock out
// (node.Climber's contract and internal/reduction/gaps.go say why).
func TestGapsAreExactWithFaults(t *testing.T) {
	for _, tc := range []struct {
		spaceCase
		crashes, drops int
	}{
		{spaceCase{"maekawa", map[string]any{"nodes": 2, "requests": 0}, 16}, 1, 1},
		{spaceCase{"maekawa", map[string]any{"nodes": 3, "requests": 0}, 10}, 0, 1},
	} {
		cfg := mutexConfig(t, tc.alg, tc.params, tc.depth)
		cfg.Crashes, cfg.Drops = tc.crashes, tc.drops
		full, reduced, err := statespace.ShiftSpacesWithout(cfg, tc.depth, 2_000_000, "")
		if err != nil || !maps.Equal(full, reduced) {
			t.Errorf("%v, %d crashes, %d drops: the full search's states map to %d, the reduced search reaches %d (%v)",
				tc.params, tc.crashes, tc.drops, len(full), len(reduced), err)
		}
		_, kept, err := statespace.ShiftSpacesWithout(cfg, tc.depth, 2_000_000, "gaps")
		if err != nil || len(kept) <= len(reduced) {
			t.Errorf("%v, %d crashes, %d drops: %d states with the gaps narrowed, %d without (%v)", tc.params, tc.crashes, tc.drops, len(reduced), len(kept), err)
		}
	}
}
