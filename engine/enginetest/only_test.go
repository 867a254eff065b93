package enginetest_test

import (
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/enginetest"
)

// TestExhaustWithOnlyOneProperty: with Only, the greedy relay's double
// entry is not looked for, and the report names the one property judged;
// Only the property it breaks finds the double entry again.
func TestExhaustWithOnlyOneProperty(t *testing.T) {
	greedy := params(map[string]any{"greedy": true})
	r := record(t)
	enginetest.ExhaustWith(r, relayAlgorithm(), greedy, enginetest.Options{Only: check.IDTermination})
	if len(r.errs) != 0 || len(r.logs) != 1 {
		t.Fatalf("termination only: want no report and one log, got %v and %v", r.errs, r.logs)
	}
	contains(t, "the log", r.logs[0], "relay (termination only): exhausted, no violation: ")

	r = record(t)
	enginetest.ExhaustWith(r, relayAlgorithm(), greedy, enginetest.Options{Only: check.IDMutualExclusion})
	if len(r.errs) != 1 {
		t.Fatalf("mutual exclusion only: want one report, got %v", r.errs)
	}
	contains(t, "the report", r.errs[0], "relay (mutual exclusion only): mutual exclusion violated after 3 steps (a shortest path): ")
}
