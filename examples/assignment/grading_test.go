package assignment_test

import (
	"path/filepath"
	"strings"
	"testing"

	"example.com/ringlab-examples/internal/labtest"
	"ringlab/engine/grade"
)

// lab is the Ricart-Agrawala assignment as the autograder sees it: the
// student hands in ricart.go, graded beside the visible and the hidden
// tests by the points file.
var lab = labtest.Lab{Package: "ricart", File: "ricart.go", Points: "points"}

// submission grades one ricart.go (the skeleton's or the solution's) as
// the autograder does, in a module of its own (see labtest.Grade).
func submission(t *testing.T, ricartGo string) (grade.Results, []byte) {
	t.Helper()
	return labtest.Grade(t, lab, ricartGo)
}

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, for full marks.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := submission(t, filepath.Join("ricart", "ricart.go"))
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	for _, tr := range res.Tests {
		if tr.Status != "passed" {
			t.Errorf("%s: %s\n%s", tr.Name, tr.Status, tr.Output)
		}
	}
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles, and fails the
// way a student expects: no node ever enters, so the visible sweeps
// report no progress with a seed to replay, and the hidden searches a
// shortest path where requests wait for ever, with the replay command.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := submission(t, filepath.Join("testdata", "skeleton", "ricart.go"))
	tests := labtest.ByName(res)
	for _, c := range []struct {
		name       string
		visibility string
		want       []string
	}{
		{"TestSweepOneRequest", "visible", []string{"ricart-agrawala, seed 1 of 1..200: no progress: no deadlock violated: node 1, node 2 and node 3 still waiting for the critical section at t=11 and nobody is in it",
			"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweepOneRequest$' ./ricart"}},
		{"TestSweepTwoRequests", "visible", []string{"no progress: no deadlock violated", "RINGLAB_SEED=1 go test -run '^TestSweepTwoRequests$' ./ricart"}},
		{"TestHiddenExhaustOneRequest", "hidden", []string{"ricart-agrawala: no deadlock violated after ", "(a shortest path): node 1, node 2 and node 3 still waiting",
			"path: c1,", "replay (prints the run): RINGLAB_PATH=c1,", " go test -run '^TestHiddenExhaustOneRequest$' ./ricart", "the path in words:", "send  REQUEST"}},
		{"TestHiddenExhaustTwoRequests", "hidden", []string{"no deadlock violated after ", "RINGLAB_PATH=c1,"}},
	} {
		tr, ok := tests[c.name]
		if !ok {
			t.Fatalf("%s not graded:\n%s", c.name, b)
		}
		if tr.Status != "failed" || tr.Score != 0 || tr.Visibility != c.visibility {
			t.Errorf("%s: %s %v/%v %s, want failed 0 %s", c.name, tr.Status, tr.Score, tr.MaxScore, tr.Visibility, c.visibility)
		}
		for _, w := range c.want {
			if !strings.Contains(tr.Output, w) {
				t.Errorf("%s: no %q in its output:\n%s", c.name, w, tr.Output)
			}
		}
	}
	if res.Score > 1 { // at most TestVet's point: the lint may pass a skeleton that does nothing
		t.Errorf("the skeleton scores %v:\n%s", res.Score, b)
	}
}

// TestABuggySubmissionGetsACounterexample: a submission whose WANTED node
// replies to a later request (it forgets the timestamps) passes the
// sweeps it happens to, and the hidden search finds two nodes inside at
// once, with the shortest path and its replay.
func TestABuggySubmissionGetsACounterexample(t *testing.T) {
	res, b := submission(t, filepath.Join("testdata", "buggy", "ricart.go"))
	tests := labtest.ByName(res)
	for _, name := range []string{"TestHiddenExhaustOneRequest", "TestHiddenExhaustTwoRequests"} {
		tr := tests[name]
		for _, w := range []string{"ricart-agrawala: mutual exclusion violated after ", "(a shortest path): ",
			"are in the critical section at once", "path: c1,", "RINGLAB_PATH=c1,", "go test -run '^" + name + "$' ./ricart", "ENTER critical section"} {
			if !strings.Contains(tr.Output, w) {
				t.Errorf("%s: no %q in its output:\n%s", name, w, tr.Output)
			}
		}
		if tr.Status != "failed" {
			t.Errorf("%s: %s", name, tr.Status)
		}
	}
	if res.Score >= 10 {
		t.Errorf("the buggy submission scores %v:\n%s", res.Score, b)
	}
}
