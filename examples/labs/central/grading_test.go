package centrallab_test

import (
	"path/filepath"
	"testing"

	"example.com/ringlab-examples/internal/labtest"
)

// lab is the central coordinator lab as the autograder sees it: the
// student hands in central.go, graded beside the visible and the hidden
// tests.
var lab = labtest.Lab{Package: "central", File: "central.go", Points: "points"}

// failed is what a failed graded test must show.
func failed(test, visibility string, output ...string) labtest.Want {
	return labtest.Want{Test: test, Status: "failed", Visibility: visibility, Output: output}
}

// passed is a graded test that must pass, and what it must log.
func passed(test string, output ...string) labtest.Want {
	return labtest.Want{Test: test, Status: "passed", Output: output}
}

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, for full marks, and the slow holder's double
// entry is in its log with the replay.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("central", "central.go"))
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	labtest.Check(t, res, b, passed("TestVet"), passed("TestSweepNoTimeout"), passed("TestSweepTimeout"),
		passed("TestHiddenNoTimeout"), passed("TestHiddenDeadHolder"),
		passed("TestHiddenSlowHolder", "as it should be: central-lab: mutual exclusion violated after 7 steps (a shortest path): node 2 and node 3 are in the critical section at once",
			"RINGLAB_PATH=c2,c3,d2-1,t1:1,d1-2,d3-1,d1-3 go test -run '^TestHiddenSlowHolder$' ./central", "timeout: permission taken back from node 2"))
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles, and nobody ever
// enters.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "skeleton", "central.go"))
	labtest.Check(t, res, b,
		failed("TestSweepNoTimeout", "visible", "no progress: no deadlock violated: node 2, node 3 and node 4 still waiting", "RINGLAB_SEED=1 go test -run '^TestSweepNoTimeout$' ./central"),
		failed("TestHiddenNoTimeout", "hidden", "no deadlock violated after 3 steps (a shortest path)", "RINGLAB_PATH=c2,c3,c4 go test -run '^TestHiddenNoTimeout$' ./central"),
		failed("TestHiddenSlowHolder", "hidden", "no deadlock, not mutual exclusion as it should be"))
	if res.Score > 1 { // at most TestVet's point
		t.Errorf("the skeleton scores %v:\n%s", res.Score, b)
	}
}

// TestTheBusySubmissionBreaksMutualExclusion: a coordinator that grants
// whenever somebody waits lets two participants in with no timeout at
// all: the visible sweeps and the hidden search without the timeout find
// it.
func TestTheBusySubmissionBreaksMutualExclusion(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-busy", "central.go"))
	labtest.Check(t, res, b, passed("TestHiddenDeadHolder"),
		failed("TestSweepNoTimeout", "visible", "mutual exclusion violated: node 2 and node 3 are in the critical section at once"),
		failed("TestHiddenNoTimeout", "hidden", "central-lab: mutual exclusion violated after 6 steps (a shortest path): node 2 and node 3 are in the critical section at once",
			"path: c2,c3,d2-1,d1-2,d3-1,d1-3", "RINGLAB_PATH=c2,c3,d2-1,d1-2,d3-1,d1-3 go test -run '^TestHiddenNoTimeout$' ./central"))
	if res.Score != 4 {
		t.Errorf("the busy submission scores %v, want 4:\n%s", res.Score, b)
	}
}

// TestTheNoReclaimSubmissionStarves: a coordinator that never takes a
// grant back is safe, and passes every test without a dead holder; with
// participant 2 dead inside, the others wait for ever, and the slow
// holder's double entry, which the lab's rule accepts, is not there.
func TestTheNoReclaimSubmissionStarves(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-noreclaim", "central.go"))
	labtest.Check(t, res, b, passed("TestVet"), passed("TestSweepNoTimeout"), passed("TestSweepTimeout"), passed("TestHiddenNoTimeout"),
		failed("TestHiddenDeadHolder", "hidden", "central-lab (no starvation only): no starvation violated after 8 steps (a shortest path): 2 request(s) of node 3 and node 4 never granted",
			"timeout ignored: node 2 may only be slow", "go test -run '^TestHiddenDeadHolder$' ./central"),
		failed("TestHiddenSlowHolder", "hidden", "exhausted, and mutual exclusion holds in every state", "it should be violated"))
	if res.Score != 7 {
		t.Errorf("the no-reclaim submission scores %v, want 7:\n%s", res.Score, b)
	}
}
