package ringelection_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/ringlab-examples/internal/labtest"
	"ringlab/engine/grade"
)

// lab is the ring-election lab as the autograder sees it: the student
// hands in ringelection.go, graded beside the visible and the hidden
// tests by the points file.
var lab = labtest.Lab{Package: "ringelection", File: "ringelection.go", Points: "points"}

// submission grades one ringelection.go as the autograder does, in a
// module of its own (see labtest.Grade).
func submission(t *testing.T, path ...string) (grade.Results, []byte) {
	t.Helper()
	return labtest.Grade(t, lab, filepath.Join(path...))
}

// replay is the start of the replay command a failing hidden test of ring
// prints.
func replay(test, ring string) string {
	return " go test -run '^" + test + "$/^" + ring + "$' ./ringelection"
}

// quoted checks that README.md quotes each of lines, the output a
// submission was just seen to give: the README shows real output.
func quoted(t *testing.T, lines ...string) {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !strings.Contains(string(b), l) {
			t.Errorf("README.md does not quote %q", l)
		}
	}
}

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, for full marks.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := submission(t, "ringelection", "ringelection.go")
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	for _, tr := range res.Tests {
		if tr.Status != "passed" {
			t.Errorf("%s: %s\n%s", tr.Name, tr.Status, tr.Output)
		}
	}
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles and nobody ever
// prints a line or takes a leader, so every test but the lint fails: the
// transcript at its first line, the leader and termination with the
// shortest path where every node has started.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := submission(t, "testdata", "skeleton", "ringelection.go")
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestFourCases", Status: "failed", Visibility: "visible", Output: skeletonFourCases},
		labtest.Want{Test: "TestAllStart", Status: "failed", Output: skeletonAllStart},
		labtest.Want{Test: "TestHiddenTranscript", Status: "failed", Visibility: "hidden", Output: []string{
			`transcript violated after 1 steps (a shortest path): node 1 (id 5): line 1: printed nothing, the specification prints "[Node 1] ID=5 iniciando eleição"`,
			"RINGLAB_PATH=c1" + replay("TestHiddenTranscript", "ids_5_3_7")}},
		labtest.Want{Test: "TestHiddenOneLeader", Status: "failed", Output: []string{
			"correctness violated after 3 steps (a shortest path): no live node took a leader", "RINGLAB_PATH=c1,c2,c3" + replay("TestHiddenOneLeader", "ids_5_3_7")}},
		labtest.Want{Test: "TestHiddenEveryoneLearns", Status: "failed", Output: []string{"agreement violated after 3 steps (a shortest path): 3 live node(s) know no leader"}},
		labtest.Want{Test: "TestHiddenTermination", Status: "failed", Output: []string{"termination violated after 3 steps (a shortest path): the run ended and no live process considers itself leader"}},
	)
	if res.Score > 1 { // at most TestVet's point: the lint may pass a node that does nothing
		t.Errorf("the skeleton scores %v:\n%s", res.Score, b)
	}
	quoted(t, append(skeletonFourCases, skeletonAllStart...)...)
}

// What the skeleton's visible tests print, quoted in README.md.
var (
	skeletonFourCases = []string{
		`ringelection_test.go:47: ring-election, seed 1 of 1..20: transcript violated: node 1 (id 5): line 1: printed nothing, the specification prints "[Node 1] ID=5 iniciando eleição"`,
		"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestFourCases$/^ids_5_3_7$' ./ringelection"}
	skeletonAllStart = []string{
		"ringelection_test.go:47: ring-election, seed 1 of 1..50: correctness violated: no live node took a leader",
		"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestAllStart$/^ids_5_3_7$' ./ringelection"}
)

// mistake grades the buggy submission in testdata/dir: it must score
// less than the solution and show wants, whose output README.md quotes.
func mistake(t *testing.T, dir string, wants ...labtest.Want) {
	t.Helper()
	res, b := submission(t, "testdata", dir, "ringelection.go")
	labtest.Check(t, res, b, wants...)
	if res.Score >= 10 {
		t.Errorf("%s scores %v of 10:\n%s", dir, res.Score, b)
	}
	for _, w := range wants {
		quoted(t, w.Output...)
	}
}

// TestLargerCandidateLosesTheSmallest: a submission that sends on the
// larger of the candidate and its own id (rules 2 and 3 swapped) elects
// the largest id: its transcript differs at the first ELECTION that comes
// back, and the search finds a node taking the wrong leader. Everyone
// still learns that (wrong) leader, and the counts stay within the
// rules'.
func TestLargerCandidateLosesTheSmallest(t *testing.T) {
	mistake(t, "buggy-larger",
		labtest.Want{Test: "TestFourCases", Status: "failed"},
		labtest.Want{Test: "TestHiddenTranscript", Status: "failed", Output: []string{
			`transcript violated after 9 steps (a shortest path): node 1 (id 5): line 3: printed "[Node 1] ID=5 recebeu ELECTION(7)", the specification prints "[Node 1] ID=5 recebeu ELECTION(3)"`,
			"path: c1,d1-2,d2-3,d3-1,d1-2,d2-3,d3-1,d1-2,d2-3\n", "RINGLAB_PATH=c1,d1-2,d2-3,d3-1,d1-2,d2-3,d3-1,d1-2,d2-3" + replay("TestHiddenTranscript", "ids_5_3_7")}},
		labtest.Want{Test: "TestHiddenOneLeader", Status: "failed", Output: []string{
			"correctness violated after 9 steps (a shortest path): node 1 takes id 7, the smallest id is 3",
			"RINGLAB_PATH=c3,d3-1,c1,d1-2,c2,d2-3,d3-1,d1-2,d2-3" + replay("TestHiddenOneLeader", "ids_5_3_7"),
			"t=6      node 3   leader is id 7", "✗ correctness: node 1 takes id 7, the smallest id is 3"}},
		labtest.Want{Test: "TestHiddenEveryoneLearns", Status: "passed"},
		labtest.Want{Test: "TestHiddenTermination", Status: "passed"},
	)
}

// TestAnnouncementGoesRoundForEver: a submission whose leader passes its
// own ELECTED on (rule 6 forgotten) announces for ever. Every node prints
// the right lines and takes the right leader, but no run ends: the visible
// sweeps stop at their million-step budget, the hidden searches that judge
// where a run ends say no run does, so nothing was judged there, and the
// termination search finds the first ELECTED beyond the rules' k*n, with
// its path.
func TestAnnouncementGoesRoundForEver(t *testing.T) {
	mistake(t, "buggy-forever",
		labtest.Want{Test: "TestFourCases", Status: "failed", Output: []string{"announcement violated: 4 ELECTION (at most 4), 999996 ELECTED (at most 3)"}},
		labtest.Want{Test: "TestHiddenTranscript", Status: "failed", Output: []string{
			"ring-election: not proved: no run ends (no path of the 11 states reaches one where the run is over, though the workload ends), so transcript was not judged"}},
		labtest.Want{Test: "TestHiddenOneLeader", Status: "failed", Output: []string{"so correctness was not judged"}},
		labtest.Want{Test: "TestHiddenEveryoneLearns", Status: "failed", Output: []string{"so agreement was not judged"}},
		labtest.Want{Test: "TestHiddenTermination", Status: "failed", Output: []string{
			"announcement violated after 13 steps (a shortest path): node 2 sent ELECTED number 10: the rules send at most k*n = 9 (k = 3 initiator(s), n = 3), rule 6 stopping each at the leader",
			"RINGLAB_PATH=c2,d2-3,d3-1,d1-2,d2-3,d3-1,d1-2,d2-3,d3-1,d1-2,d2-3,d3-1,d1-2" + replay("TestHiddenTermination", "ids_5_3_7"),
			"t=7      node 2   note  election complete", "t=7      node 2   send  ELECTED(candidate_id=3) to node 3"}},
	)
}

// TestSilentFollowerLeavesOthersOut: a submission whose follower takes
// the leader but does not pass ELECTED on (rule 5 half done): one leader,
// the right one, and every run ends, but the nodes after the first
// follower never learn it.
func TestSilentFollowerLeavesOthersOut(t *testing.T) {
	mistake(t, "buggy-silent",
		labtest.Want{Test: "TestFourCases", Status: "failed"},
		labtest.Want{Test: "TestHiddenTranscript", Status: "failed", Output: []string{
			`transcript violated after 6 steps (a shortest path): node 1 (id 5): line 5: printed nothing, the specification prints "[Node 1] Reconheço líder ID=3"`}},
		labtest.Want{Test: "TestHiddenOneLeader", Status: "passed"},
		labtest.Want{Test: "TestHiddenEveryoneLearns", Status: "failed", Output: []string{
			"agreement violated after 7 steps (a shortest path): 1 live node(s) know no leader (first: node 1)",
			"RINGLAB_PATH=c2,d2-3,c3,d3-1,c1,d1-2,d2-3" + replay("TestHiddenEveryoneLearns", "ids_5_3_7")}},
		labtest.Want{Test: "TestHiddenTermination", Status: "passed"},
	)
}
