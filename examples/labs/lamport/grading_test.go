package lamportlab_test

import (
	"path/filepath"
	"testing"

	"example.com/ringlab-examples/internal/labtest"
	"ringlab/engine/grade"
)

// lab is the Lamport lab as the autograder sees it: the student hands in
// lamport.go, graded beside the visible and the hidden tests by the points
// file.
var lab = labtest.Lab{Package: "lamport", File: "lamport.go", Points: "points"}

// quoted is what README.md shows of a submission's test output.
func quoted(t *testing.T, key string) []string { return labtest.Quoted(t, "README.md", key) }

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, the FIFO one included, for full marks.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("lamport", "lamport.go"))
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestHiddenExhaustThreeNodes", Status: "passed", Output: []string{"lamport: exhausted, no violation: 112619 distinct states, 1243 terminal, depth 24"}},
		labtest.Want{Test: "TestHiddenExhaustTwoRequests", Status: "passed", Output: []string{"lamport: exhausted, no violation: 613 distinct states, 44 terminal, depth 20"}},
		labtest.Want{Test: "TestHiddenNeedsFIFO", Status: "passed", Output: quoted(t, "solution TestHiddenNeedsFIFO")})
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles and lets nobody
// in: every test but the lint fails with no progress, a seed or a path to
// replay.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "skeleton", "lamport.go"))
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestVet", Status: "passed"},
		labtest.Want{Test: "TestSweepOneRequest", Status: "failed", Visibility: "visible", Output: quoted(t, "skeleton TestSweepOneRequest")},
		labtest.Want{Test: "TestSweepTwoRequests", Status: "failed", Output: []string{"no progress: no deadlock violated", "RINGLAB_SEED=1 go test -run '^TestSweepTwoRequests$' ./lamport"}},
		labtest.Want{Test: "TestHiddenExhaustThreeNodes", Status: "failed", Visibility: "hidden", Output: quoted(t, "skeleton TestHiddenExhaustThreeNodes")},
		labtest.Want{Test: "TestHiddenExhaustTwoRequests", Status: "failed", Output: []string{"no deadlock violated after 4 steps", "RINGLAB_PATH=c1,c2,d1-2,d2-1 go test"}},
		labtest.Want{Test: "TestHiddenNeedsFIFO", Status: "failed", Output: []string{"lamport (mutual exclusion only): exhausted, and mutual exclusion holds in every state", "it should be violated"}})
	score(t, res, 1, b)
}

// TestEnteringOnAcksAloneBreaksSafety: a node that enters once every ACK
// is in, without looking at its queue, enters before an earlier request
// (the grant order), then with it (mutual exclusion): the sweeps and both
// searches find it (the FIFO test passes: it wants the double entry).
func TestEnteringOnAcksAloneBreaksSafety(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-noqueue", "lamport.go"))
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestSweepOneRequest", Status: "failed", Output: []string{" violated: node ", "RINGLAB_SEED=1 go test"}},
		labtest.Want{Test: "TestHiddenExhaustThreeNodes", Status: "failed", Output: []string{"lamport: grant order violated after 7 steps (a shortest path)", "ENTER critical section"}},
		labtest.Want{Test: "TestHiddenExhaustTwoRequests", Status: "failed", Output: quoted(t, "buggy-noqueue TestHiddenExhaustTwoRequests")},
		labtest.Want{Test: "TestHiddenNeedsFIFO", Status: "passed"})
	score(t, res, 2, b)
}

// TestKeepingItsOwnRequestDeadlocks: a node that leaves without dropping
// its own request passes every test of one request a node, and deadlocks
// at its second: only the tests with two requests fail.
func TestKeepingItsOwnRequestDeadlocks(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-keepsown", "lamport.go"))
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestSweepOneRequest", Status: "passed"},
		labtest.Want{Test: "TestSweepTwoRequests", Status: "failed", Output: []string{"no progress: no deadlock violated", "RINGLAB_SEED=1 go test -run '^TestSweepTwoRequests$' ./lamport"}},
		labtest.Want{Test: "TestHiddenExhaustThreeNodes", Status: "passed"},
		labtest.Want{Test: "TestHiddenExhaustTwoRequests", Status: "failed", Output: quoted(t, "buggy-keepsown TestHiddenExhaustTwoRequests")},
		labtest.Want{Test: "TestHiddenNeedsFIFO", Status: "passed"})
	score(t, res, 6, b)
}

// score fails t unless the submission scores want of 10.
func score(t *testing.T, res grade.Results, want float64, b []byte) {
	t.Helper()
	if res.Score != want {
		t.Errorf("scores %v of 10, want %v:\n%s", res.Score, want, b)
	}
}
