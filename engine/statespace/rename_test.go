package statespace_test

import (
	"context"
	"maps"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
	"ringlab/mutex/kit"
)

// The identifiers' renaming (quorum's request numbers) and Maekawa's
// clock shift are exact, as TestClockShiftIsExact shows for Lamport's and
// Ricart-Agrawala's clocks: searching with states as they are and mapping
// each to its reduction gives exactly the states the reduced search
// reaches, each seen alike (terminal or not, the same transitions, the
// same violations on them, to corresponding successors). Finite spaces
// (one or two requests a node, with and without retries that make up new
// request numbers, one with the split-vote deadlock) are compared whole,
// infinite ones (--requests 0) to a depth; and on those the reduced
// search merges states, or the test would prove nothing (the
// regenerating token ring's search looks past its second token, which
// "one token" reports at once, for no deadlock only).
func TestRenamingAndMaekawaShiftAreExact(t *testing.T) {
	for _, tc := range []struct {
		alg    string
		params map[string]any
		depth  int
		quiet  bool     // --timers quiet
		only   check.ID // the property the searches by depth look for ("": any)
	}{
		{"quorum", map[string]any{"coordinators": 2, "quorum": 2, "nodes": 2, "requests": 2}, 0, false, ""},
		{"quorum", map[string]any{"coordinators": 3, "nodes": 2, "requests": 1}, 0, false, ""},
		{"quorum", map[string]any{"coordinators": 2, "quorum": 2, "nodes": 2, "requests": 1, "retry-timeout": int64(3)}, 7, false, ""},
		{"quorum", map[string]any{"coordinators": 3, "nodes": 2, "requests": 0}, 10, false, ""},
		{"quorum", map[string]any{"coordinators": 2, "quorum": 2, "nodes": 2, "requests": 0, "retry-timeout": int64(3)}, 16, true, ""},
		{"token-ring", map[string]any{"nodes": 3, "requests": 0, "regen-timeout": int64(5)}, 12, true, kit.IDNoDeadlock},
		{"token-ring", map[string]any{"nodes": 2, "requests": 1, "regen-timeout": int64(5)}, 0, false, ""},
		{"maekawa", map[string]any{"nodes": 2, "requests": 2}, 0, false, ""},
		{"maekawa", map[string]any{"nodes": 2, "requests": 0}, 20, false, ""},
		{"maekawa", map[string]any{"nodes": 3, "requests": 0}, 9, false, ""},
	} {
		cfg := mutexConfig(t, tc.alg, tc.params, tc.depth)
		if tc.quiet {
			cfg.Timers = statespace.TimersQuiet
		}
		full, reduced, err := statespace.ShiftSpaces(cfg, tc.depth, 2_000_000)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.alg, tc.params, err)
		}
		if !maps.Equal(full, reduced) {
			t.Errorf("%s %v: the full search's states map to %d reduced states, the reduced search reaches %d, not the same",
				tc.alg, tc.params, len(full), len(reduced))
		}
		if tc.depth > 0 {
			var res [2]statespace.Result
			for k, noShift := range []bool{false, true} {
				c := cfg
				c.MaxDepth, c.NoShift, c.Only = tc.depth, noShift, tc.only
				if res[k], err = statespace.Search(context.Background(), c); err != nil {
					t.Fatal(err)
				}
			}
			if res[0].Distinct >= res[1].Distinct {
				t.Errorf("%s %v: the reduction merged no state: %d with it, %d without", tc.alg, tc.params, res[0].Distinct, res[1].Distinct)
			}
		}
		t.Logf("%s %v depth %d: %d reduced states", tc.alg, tc.params, tc.depth, len(reduced))
	}
}
