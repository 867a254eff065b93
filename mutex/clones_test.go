package mutex

import (
	"context"
	"testing"

	"ringlab/engine/statespace"
)

// The algorithms' nodes share their slices with their clones (a step
// never changes one in place, it builds a new one), so a step that did
// would change the states it came from. CheckClones rebuilds every state
// the search finds along its path and compares its key: each mutex
// algorithm's space, with the reduction and without, with requests
// while waiting or in the critical section (two requests a node).
func TestClonesShareNothingAStepChanges(t *testing.T) {
	for _, args := range [][]string{
		{"central", "--nodes", "3", "--requests", "2"},
		{"token-ring", "--nodes", "3", "--requests", "2"},
		{"ricart-agrawala", "--nodes", "3", "--requests", "2"},
		{"lamport", "--nodes", "3", "--requests", "2"},
		{"quorum", "--coordinators", "1", "--nodes", "3", "--requests", "2"},
		{"maekawa", "--nodes", "3", "--requests", "1"},
	} {
		for _, por := range []bool{false, true} {
			cfg := checkConfig(t, args...)
			cfg.POR, cfg.CheckClones, cfg.MaxStates = por, true, 20000
			res, err := statespace.Search(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%v, por=%v: %v", args, por, err)
			}
			if res.Distinct < 1000 && !res.Exhausted {
				t.Errorf("%v, por=%v: %d states checked", args, por, res.Distinct)
			}
			t.Logf("%v, por=%v: %d states rebuilt along their paths", args, por, res.Distinct)
		}
	}
}
