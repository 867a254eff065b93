package statespace_test

import (
	"testing"

	"ringlab/engine/statespace"
)

// A state's depth is the length of its first path. The records keep a
// depth only where the state's number does not imply it (a state found
// from one expanded again when its sleep set woke up, a level after its
// depth); Lamport's and Ricart-Agrawala's reduced searches find such
// states, and every state's depth, implied or kept, equals the length of
// the path its parent links rebuild, with one worker and two, with the
// reduction and without.
func TestRecordsKeepDepthsTheNumbersDoNotImply(t *testing.T) {
	for _, tc := range []struct {
		alg    string
		params map[string]any
	}{
		{"lamport", map[string]any{"nodes": 3, "requests": 0, "clock": "requests", "max-clock": 4}},
	} {
		var want [2]statespace.Result
		for p, por := range []bool{false, true} {
			oddSeen := false
			for _, w := range []int{1, 2} {
				cfg := mutexConfig(t, tc.alg, tc.params, 0)
				cfg.POR, cfg.Workers = por, w
				res, states, odd, bad, err := statespace.SearchCheckingDepths(cfg)
				if err != nil || !res.Exhausted || int64(states) != res.Distinct {
					t.Fatalf("%s por=%v workers=%d: %d states compared of %d, exhausted %v (%v)", tc.alg, por, w, states, res.Distinct, res.Exhausted, err)
				}
				if bad >= 0 {
					t.Errorf("%s por=%v workers=%d: state %d's depth is not its path's length", tc.alg, por, w, bad)
				}
				if !por && odd != 0 {
					t.Errorf("%s without the reduction: %d depths kept, want none (no state is expanded again)", tc.alg, odd)
				}
				oddSeen = oddSeen || odd > 0
				if w == 1 {
					want[p] = res
				} else if res.Distinct != want[p].Distinct || res.Depth != want[p].Depth || res.Transitions != want[p].Transitions {
					t.Errorf("%s por=%v: two workers %+v, one %+v", tc.alg, por, res, want[p])
				}
			}
			if por && !oddSeen {
				t.Errorf("%s: no state's depth kept: the test does not reach the kept depths", tc.alg)
			}
		}
	}
}
