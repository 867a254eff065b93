package enginetest_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/enginetest"
)

// recorder is a testing.TB that keeps what a helper reports instead of
// failing the test that runs it.
type recorder struct {
	testing.TB
	errs, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recorder) Logf(format string, a ...any) { r.logs = append(r.logs, fmt.Sprintf(format, a...)) }

func record(t *testing.T) *recorder { return &recorder{TB: t} }

// contains fails t unless s holds every one of want.
func contains(t *testing.T, what, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("%s: no %q in:\n%s", what, w, s)
		}
	}
}

func TestSweepPassesACorrectAlgorithm(t *testing.T) {
	r := record(t)
	enginetest.Sweep(r, relayAlgorithm(), params(nil), 50)
	if len(r.errs) > 0 {
		t.Fatalf("a correct relay failed: %v", r.errs)
	}
}

// TestSweepFindsAndReplaysAViolation: the greedy relay breaks mutual
// exclusion under some seed; the report names the property, the seed and
// a replay command, and running that command's seed alone reports the
// same violation and logs the run's trace.
func TestSweepFindsAndReplaysAViolation(t *testing.T) {
	r := record(t)
	enginetest.Sweep(r, relayAlgorithm(), params(map[string]any{"greedy": true}), 50)
	if len(r.errs) != 1 {
		t.Fatalf("want one report, got %d: %v", len(r.errs), r.errs)
	}
	msg := r.errs[0]
	contains(t, "the report", msg, "relay, seed ", "mutual exclusion violated: ",
		"replay (prints the run): RINGLAB_SEED=", "go test -run '^TestSweepFindsAndReplaysAViolation$' ./engine/enginetest")
	seed := regexp.MustCompile(`RINGLAB_SEED=(\d+)`).FindStringSubmatch(msg)[1]

	t.Setenv(enginetest.SeedEnv, seed)
	again := record(t)
	enginetest.Sweep(again, relayAlgorithm(), params(map[string]any{"greedy": true}), 50)
	if len(again.errs) != 1 || len(again.logs) != 1 {
		t.Fatalf("the replay: want one report and one log, got %v and %v", again.errs, again.logs)
	}
	contains(t, "the replay's report", again.errs[0], "relay, seed "+seed+" of "+seed+".."+seed+": mutual exclusion violated")
	contains(t, "the replay's trace", again.logs[0], "ENTER critical section", "✗ mutual exclusion")
}

func TestSweepRefusesABadSeed(t *testing.T) {
	t.Setenv(enginetest.SeedEnv, "seven")
	r := record(t)
	enginetest.Sweep(r, relayAlgorithm(), params(nil), 5)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], `RINGLAB_SEED="seven": want a seed`) {
		t.Fatalf("got %v", r.errs)
	}
	r = record(t)
	enginetest.Sweep(r, relayAlgorithm(), params(nil), 0)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "seeds must be at least 1") {
		t.Fatalf("got %v", r.errs)
	}
}

func TestSweepReportsABuildError(t *testing.T) {
	r := record(t)
	p := params(nil)
	_ = p.Give("nodes", 1) // past the parameter's Check, which only a command line runs
	enginetest.Sweep(r, relayAlgorithm(), p, 5)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "relay: Build (seed 1): relay needs at least 2 nodes") {
		t.Fatalf("got %v", r.errs)
	}
}

func TestExhaustPassesACorrectAlgorithm(t *testing.T) {
	r := record(t)
	enginetest.Exhaust(r, relayAlgorithm(), params(nil))
	if len(r.errs) > 0 {
		t.Fatalf("a correct relay failed: %v", r.errs)
	}
	if len(r.logs) != 1 || !strings.Contains(r.logs[0], "relay: exhausted, no violation") {
		t.Fatalf("logs: %v", r.logs)
	}
}

// TestExhaustChecksTheHandWrittenMethods: a Clone short of a field the
// key leaves out changes no verdict (node 1 just passes no token), yet
// Exhaust reports it, from vet's comparison with the derived copy.
func TestExhaustChecksTheHandWrittenMethods(t *testing.T) {
	r := record(t)
	enginetest.Exhaust(r, relayAlgorithm(), params(map[string]any{"forgetful": true}))
	if len(r.errs) != 1 {
		t.Fatalf("errors %q, want one", r.errs)
	}
	contains(t, "Exhaust", r.errs[0], "relay: the node's own Clone or AppendKey",
		"clone: node 1: Clone: a clone of the *enginetest_test.relay differs from its original (field left)")
}

// TestExhaustFindsAndReplaysAViolation: the search reports the shortest
// path, in labels and words, and its replay command; the replay of that
// path alone reports the same violation.
func TestExhaustFindsAndReplaysAViolation(t *testing.T) {
	r := record(t)
	enginetest.Exhaust(r, relayAlgorithm(), params(map[string]any{"greedy": true}))
	if len(r.errs) != 1 {
		t.Fatalf("want one report, got %v", r.errs)
	}
	msg := r.errs[0]
	contains(t, "the report", msg, "relay: mutual exclusion violated after 3 steps (a shortest path): ",
		"path: c1,c3,d1-2\n", "replay (prints the run): RINGLAB_PATH=c1,c3,d1-2 go test -run '^TestExhaustFindsAndReplaysAViolation$' ./engine/enginetest",
		"the path in words:\n", "ENTER critical section")

	t.Setenv(enginetest.PathEnv, "c1,c3,d1-2")
	again := record(t)
	enginetest.Exhaust(again, relayAlgorithm(), params(map[string]any{"greedy": true}))
	if len(again.errs) != 1 || len(again.logs) != 1 {
		t.Fatalf("the replay: want one report and one log, got %v and %v", again.errs, again.logs)
	}
	contains(t, "the replay's report", again.errs[0], "relay, path c1,c3,d1-2: mutual exclusion violated")
	// the path stops at the violation, before the run ends: termination
	// is not reached there, not violated
	contains(t, "the replay's trace", again.logs[0], "✗ mutual exclusion", "– termination: not reached (the path ends before the run does)")

	t.Setenv(enginetest.PathEnv, "c1,q9")
	bad := record(t)
	enginetest.Exhaust(bad, relayAlgorithm(), params(map[string]any{"greedy": true}))
	if len(bad.errs) != 1 || !strings.Contains(bad.errs[0], `RINGLAB_PATH="c1,q9": `) {
		t.Fatalf("a bad path: got %v", bad.errs)
	}
}

// TestSweepReportsARunThatDoesNotEnd: a relay with more hops than the
// step budget allows is reported as not terminating.
func TestSweepReportsARunThatDoesNotEnd(t *testing.T) {
	r := record(t)
	enginetest.Sweep(r, relayAlgorithm(), params(map[string]any{"hops": 2 * enginetest.MaxSteps}), 3)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "relay, seed 1 of 1..3: no termination: still running after the step budget of 1000000 steps") {
		t.Fatalf("got %v", r.errs)
	}
}

// TestExhaustWithWantsAViolation: with Want, a search that finds that
// property violated passes and logs the path and its replay; one that
// exhausts the space without it, or finds another property violated,
// fails.
func TestExhaustWithWantsAViolation(t *testing.T) {
	want := enginetest.Options{Want: check.IDMutualExclusion}
	r := record(t)
	enginetest.ExhaustWith(r, relayAlgorithm(), params(map[string]any{"greedy": true}), want)
	if len(r.errs) != 0 || len(r.logs) != 1 {
		t.Fatalf("want no report and one log, got %v and %v", r.errs, r.logs)
	}
	contains(t, "the log", r.logs[0], "as it should be: relay: mutual exclusion violated after 3 steps (a shortest path): ",
		"replay (prints the run): RINGLAB_PATH=c1,c3,d1-2 go test -run '^TestExhaustWithWantsAViolation$' ./engine/enginetest")

	r = record(t)
	enginetest.ExhaustWith(r, relayAlgorithm(), params(nil), want)
	if len(r.errs) != 1 {
		t.Fatalf("a correct relay: want one report, got %v", r.errs)
	}
	contains(t, "the report", r.errs[0], "relay: exhausted, and mutual exclusion holds in every state: ", "it should be violated")

	r = record(t)
	enginetest.ExhaustWith(r, relayAlgorithm(), params(map[string]any{"greedy": true}), enginetest.Options{Want: check.IDTermination})
	if len(r.errs) != 1 {
		t.Fatalf("another violation: want one report, got %v", r.errs)
	}
	contains(t, "the report", r.errs[0], "mutual exclusion, not termination as it should be")
}

// TestExhaustWithFaults: the fault budgets reach the search: a dropped
// token or a crashed node adds states to the relay's six (9 with a drop,
// 21 with a crash), and the search still passes it.
func TestExhaustWithFaults(t *testing.T) {
	for _, c := range []struct {
		o    enginetest.Options
		want string
	}{
		{enginetest.Options{}, "exhausted, no violation: 6 distinct states"},
		{enginetest.Options{Drops: 1}, "exhausted, no violation: 9 distinct states"},
		{enginetest.Options{Crashes: 1}, "exhausted, no violation: 21 distinct states"},
	} {
		r := record(t)
		enginetest.ExhaustWith(r, relayAlgorithm(), params(nil), c.o)
		if len(r.errs) != 0 || len(r.logs) != 1 {
			t.Fatalf("%+v: got %v and %v", c.o, r.errs, r.logs)
		}
		contains(t, fmt.Sprintf("%+v", c.o), r.logs[0], c.want)
	}
}

// TestExhaustFailsARunThatNeverEnds: a relay whose token goes round for
// ever has no state where its run ends, so termination, judged where a run
// ends, was judged nowhere: Exhaust fails with the lasso on which it stays
// owed (it said "exhausted, no violation" before it looked for cycles).
// EndedRunsOnly makes that a note in the log.
func TestExhaustFailsARunThatNeverEnds(t *testing.T) {
	forever := params(map[string]any{"forever": true})
	r := record(t)
	enginetest.Exhaust(r, relayAlgorithm(), forever)
	if len(r.errs) != 1 {
		t.Fatalf("want one report, got %v and logs %v", r.errs, r.logs)
	}
	contains(t, "the report", r.errs[0], "relay: no progress: termination never kept (a lasso", "lasso: c1,d1-2,d2-3|d3-1,d1-2,d2-3")

	r = record(t)
	enginetest.ExhaustWith(r, relayAlgorithm(), forever, enginetest.Options{EndedRunsOnly: true})
	if len(r.errs) != 0 || len(r.logs) != 2 {
		t.Fatalf("EndedRunsOnly: want no report and two logs, got %v and %v", r.errs, r.logs)
	}
	contains(t, "the log", r.logs[0], "relay: not judged: a run that never ends, on which termination stays owed (lasso c1,d1-2,d2-3|d3-1,d1-2,d2-3)")
}
