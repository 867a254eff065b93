package tokenringlab_test

import (
	"path/filepath"
	"testing"

	"example.com/ringlab-examples/internal/labtest"
)

// lab is the token ring lab as the autograder sees it: the student hands
// in tokenring.go, graded beside the visible and the hidden tests.
var lab = labtest.Lab{Package: "tokenring", File: "tokenring.go", Points: "points"}

// failed is what a failed graded test must show.
func failed(test, visibility string, output ...string) labtest.Want {
	return labtest.Want{Test: test, Status: "failed", Visibility: visibility, Output: output}
}

// passed is a graded test that must pass.
func passed(test string) labtest.Want { return labtest.Want{Test: test, Status: "passed"} }

// replay is the command a failed hidden test prints.
func replay(test string) string { return " go test -run '^" + test + "$' ./tokenring" }

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, for full marks.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("tokenring", "tokenring.go"))
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	labtest.Check(t, res, b, passed("TestVet"), passed("TestSweepOneRequest"), passed("TestSweepFourNodes"),
		passed("TestHiddenOneToken"), passed("TestHiddenLostToken"), passed("TestHiddenLostTokenTwoRequests"), passed("TestHiddenLiveness"))
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles, and nobody ever
// enters: the sweeps and the searches report no progress.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "skeleton", "tokenring.go"))
	stuck := "node 1, node 2 and node 3 still waiting for the critical section"
	labtest.Check(t, res, b,
		failed("TestSweepOneRequest", "visible", "no progress: no deadlock violated: "+stuck, "RINGLAB_SEED=1 go test -run '^TestSweepOneRequest$' ./tokenring"),
		failed("TestHiddenOneToken", "hidden", "no deadlock violated after 5 steps (a shortest path): "+stuck, "RINGLAB_PATH=c1,c1,t1:1,c2,c3"+replay("TestHiddenOneToken")))
	if res.Score > 1 { // at most TestVet's point
		t.Errorf("the skeleton scores %v:\n%s", res.Score, b)
	}
}

// TestTheTimeoutSubmissionMakesTwoTokens: a keeper that regenerates on
// every timeout makes a second token while the first is only in flight,
// which every hidden test finds in two steps; it keeps TestVet's point.
func TestTheTimeoutSubmissionMakesTwoTokens(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-timeout", "tokenring.go"))
	two := "one token violated after 2 steps (a shortest path): 2 tokens exist at once: 1.0 and 1.1"
	labtest.Check(t, res, b, passed("TestVet"),
		failed("TestHiddenOneToken", "hidden", two, "path: c1,t1:1", "RINGLAB_PATH=c1,t1:1"+replay("TestHiddenOneToken"), "token 1.1 regenerated",
			"in the browser: RINGLAB_SERVE=127.0.0.1:8080 RINGLAB_PATH=c1,t1:1 go test -v -timeout 0 -run '^TestHiddenOneToken$' ./tokenring"),
		failed("TestHiddenLostToken", "hidden", two))
	if res.Score != 1 {
		t.Errorf("the timeout submission scores %v, want 1:\n%s", res.Score, b)
	}
}

// TestTheNoProbeSubmissionStarves: a keeper that never probes passes every
// test without a loss, and the searches with one lost message find every
// node waiting for ever after the token is dropped.
func TestTheNoProbeSubmissionStarves(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-noprobe", "tokenring.go"))
	stuck := "no deadlock violated after 6 steps (a shortest path): node 1, node 2 and node 3 still waiting for the critical section"
	labtest.Check(t, res, b, passed("TestVet"), passed("TestSweepOneRequest"), passed("TestSweepFourNodes"), passed("TestHiddenOneToken"),
		failed("TestHiddenLostToken", "hidden", stuck, "DROP  TOKEN node 1->node 2 (lost by the network)", "RINGLAB_PATH=c1,c1,t1:1,c2,c3,l1-2"+replay("TestHiddenLostToken")),
		failed("TestHiddenLostTokenTwoRequests", "hidden", stuck), failed("TestHiddenLiveness", "hidden"))
	if res.Score != 5 {
		t.Errorf("the no-probe submission scores %v, want 5:\n%s", res.Score, b)
	}
}

// TestTheNoRegenSubmissionStarvesOnACycle: a keeper that probes for ever
// and never regenerates has no run that ends with a node waiting: after a
// lost token the probe goes round and round while every node waits, a
// lasso that every search with a loss finds (those with a finite workload
// because a run that never ends leaves their promises unjudged).
func TestTheNoRegenSubmissionStarvesOnACycle(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-noregen", "tokenring.go"))
	lasso := "c1,c1,t1:1,c2,c3,l1-2|d1-2,d2-3,d3-1,t1:1"
	never := "token-ring-lab: no progress: no deadlock never kept (a lasso: the prefix, then a cycle that repeats for ever): a fair cycle of 4 steps, reached after 6"
	labtest.Check(t, res, b, passed("TestHiddenOneToken"),
		failed("TestHiddenLostToken", "hidden", never),
		failed("TestHiddenLostTokenTwoRequests", "hidden", never, "lasso: "+lasso),
		failed("TestHiddenLiveness", "hidden", never, "lasso: "+lasso, "RINGLAB_PATH='"+lasso+"'"+replay("TestHiddenLiveness"), "send  PROBE"))
	if res.Score != 5 {
		t.Errorf("the no-regen submission scores %v, want 5:\n%s", res.Score, b)
	}
}
