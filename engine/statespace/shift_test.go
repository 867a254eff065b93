package statespace_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/statespace"
	"ringlab/mutex"
)

// mutexConfig is the exhaustive check of the mutex algorithm name with
// the given parameters.
func mutexConfig(t *testing.T, name string, params map[string]any, maxDepth int) statespace.Config {
	t.Helper()
	alg, ok := engine.Find(mutex.Algorithms(), name)
	if !ok {
		t.Fatalf("no algorithm %s", name)
	}
	p := alg.ForCheck().Defaults()
	for k, v := range params {
		if err := p.Give(k, v); err != nil {
			t.Fatal(err)
		}
	}
	_, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1, MaxDepth: maxDepth})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The clock shift is exact: searching with states as they are and mapping
// each to its shift gives exactly the states the shifted search reaches,
// each seen alike (terminal or not, the same transitions, the same
// violations on them, to corresponding successors). Lamport's and
// Ricart-Agrawala's finite spaces (one and two requests a node), the
// first levels of their infinite ones (--requests 0), and a space with a
// violation (a silent peer counted as a reply) are compared whole.
func TestClockShiftIsExact(t *testing.T) {
	for _, tc := range []struct {
		alg    string
		params map[string]any
		depth  int
	}{
		{"lamport", map[string]any{"nodes": 3, "requests": 1}, 0},
		{"lamport", map[string]any{"nodes": 3, "requests": 0}, 12},
		{"ricart-agrawala", map[string]any{"nodes": 3, "requests": 1}, 0},
		{"ricart-agrawala", map[string]any{"nodes": 2, "requests": 3}, 0},
		{"ricart-agrawala", map[string]any{"nodes": 3, "requests": 0}, 14},
		{"ricart-agrawala", map[string]any{"nodes": 2, "requests": 2, "release-broadcast": true}, 0},
		{"ricart-agrawala", map[string]any{"nodes": 3, "requests": 0, "release-broadcast": true}, 11},
		{"ricart-agrawala", map[string]any{"nodes": 2, "requests": 2, "reply-timeout": int64(5)}, 0},
	} {
		cfg := mutexConfig(t, tc.alg, tc.params, tc.depth)
		full, shifted, err := statespace.ShiftSpaces(cfg, tc.depth, 2_000_000)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.alg, tc.params, err)
		}
		if !maps.Equal(full, shifted) {
			t.Errorf("%s %v: the full search's states map to %d shifted states, the shifted search reaches %d, not the same",
				tc.alg, tc.params, len(full), len(shifted))
		}
		t.Logf("%s %v depth %d: %d shifted states", tc.alg, tc.params, tc.depth, len(shifted))
	}
}

// Search with the clock shift and without agrees: the same verdict on
// every space both finish (the violation found, its path's length), and
// the shifted search's states and terminal states are those
// ShiftSpaces maps the full ones to. With CheckClones, every shifted
// state is also rebuilt from the start and shifted again.
func TestSearchWithClockShiftAgrees(t *testing.T) {
	for _, tc := range []struct {
		alg    string
		params map[string]any
		depth  int
		viol   string // the property the search breaks ("": none)
	}{
		{"lamport", map[string]any{"nodes": 2, "requests": 3}, 0, ""},
		{"lamport", map[string]any{"nodes": 3, "requests": 0}, 12, ""},
		{"ricart-agrawala", map[string]any{"nodes": 3, "requests": 1}, 0, ""},
		{"ricart-agrawala", map[string]any{"nodes": 3, "requests": 0}, 14, ""},
		{"ricart-agrawala", map[string]any{"nodes": 2, "reply-timeout": int64(5)}, 0, "grant order"},
	} {
		cfg := mutexConfig(t, tc.alg, tc.params, tc.depth)
		cfg.MaxDepth = tc.depth
		_, shifted, err := statespace.ShiftSpaces(cfg, tc.depth, 2_000_000)
		if err != nil {
			t.Fatal(err)
		}
		var terminal int64
		for _, s := range shifted {
			if strings.HasPrefix(s, "terminal=true") {
				terminal++
			}
		}
		var res [2]statespace.Result
		for k, noShift := range []bool{false, true} {
			c := cfg
			c.NoShift, c.CheckClones = noShift, !noShift && tc.depth == 0
			if res[k], err = statespace.Search(context.Background(), c); err != nil {
				t.Fatal(err)
			}
		}
		on, off := res[0], res[1]
		name := func(r statespace.Result) string {
			if r.Violation == nil {
				return ""
			}
			return string(r.Violation.Property)
		}
		if name(on) != tc.viol || name(off) != tc.viol || len(on.Path) != len(off.Path) {
			t.Errorf("%s %v: with the shift %q in %d steps, without %q in %d; want %q",
				tc.alg, tc.params, name(on), len(on.Path), name(off), len(off.Path), tc.viol)
		}
		if tc.viol == "" && (on.Distinct != int64(len(shifted)) || on.Terminal != terminal || on.Exhausted != off.Exhausted) {
			t.Errorf("%s %v: shifted search %d states, %d terminal (exhausted %v; without the shift %v); ShiftSpaces %d, %d",
				tc.alg, tc.params, on.Distinct, on.Terminal, on.Exhausted, off.Exhausted, len(shifted), terminal)
		}
		if tc.depth > 0 && on.Distinct >= off.Distinct {
			t.Errorf("%s %v: the shift merged no state: %d with it, %d without", tc.alg, tc.params, on.Distinct, off.Distinct)
		}
		t.Logf("%s %v: %d states shifted, %d not", tc.alg, tc.params, on.Distinct, off.Distinct)
	}
}

// Forgetting what a receiver will never read (node.Forgetter: Lamport's
// ACK and RELEASE timestamps, Maekawa's clocks at most the receiver's and
// the requests its LOCKED, FAILED and INQUIRE name that are no longer
// awaited) is exact, as the whole shift is (the full search's states map
// onto the reduced search's, each seen alike), and it merges states: the
// same spaces have fewer states with it than without.
func TestForgettingIsExactAndMerges(t *testing.T) {
	exactAndMerges(t, "forget", []spaceCase{
		{"lamport", map[string]any{"nodes": 3, "requests": 0}, 9},
		{"maekawa", map[string]any{"nodes": 3, "requests": 1}, 0},
		{"maekawa", map[string]any{"nodes": 3, "requests": 0}, 10},
	})
}

// spaceCase is a mutex configuration searched to depth (0: no bound).
type spaceCase struct {
	alg    string
	params map[string]any
	depth  int
}

// exactAndMerges checks, for each case, that the unreduced graph's
// states map onto the reduced search's, each seen alike, with every
// reduction on, and that the reduction named off merges states: the
// search without it keeps more.
func exactAndMerges(t *testing.T, off string, cases []spaceCase) {
	t.Helper()
	exactAndMergesWithout(t, "", off, cases)
}

// exactAndMergesWithout is exactAndMerges with the parts named in base
// (ShiftSpacesWithout) off in both searches.
func exactAndMergesWithout(t *testing.T, base, off string, cases []spaceCase) {
	t.Helper()
	for _, tc := range cases {
		cfg := mutexConfig(t, tc.alg, tc.params, tc.depth)
		full, reduced, err := statespace.ShiftSpacesWithout(cfg, tc.depth, 2_000_000, base)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.alg, tc.params, err)
		}
		if !maps.Equal(full, reduced) {
			t.Errorf("%s %v: the full search's states map to %d reduced states, the reduced search reaches %d, not the same",
				tc.alg, tc.params, len(full), len(reduced))
		}
		_, kept, err := statespace.ShiftSpacesWithout(cfg, tc.depth, 2_000_000, strings.TrimPrefix(base+","+off, ","))
		if err != nil {
			t.Fatal(err)
		}
		if len(reduced) >= len(kept) {
			t.Errorf("%s %v: without %s no state is merged: %d with it, %d without", tc.alg, tc.params, off, len(reduced), len(kept))
		}
		t.Logf("%s %v depth %d: %d states with %s, %d without", tc.alg, tc.params, tc.depth, len(reduced), off, len(kept))
	}
}
