package bullylab_test

import (
	"path/filepath"
	"testing"

	"example.com/ringlab-examples/internal/labtest"
	"example.com/ringlab-examples/labs/bully/bully"
	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/grade"
)

// lab is the Bully lab as the autograder sees it: the student hands in
// bully.go, graded beside algorithm.go (the system and its properties),
// the visible and the hidden tests by the points file.
var lab = labtest.Lab{Package: "bully", File: "bully.go", Points: "points"}

// quoted is what README.md shows of a submission's test output.
func quoted(t *testing.T, key string) []string { return labtest.Quoted(t, "README.md", key) }

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, for full marks.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("bully", "bully.go"))
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestHiddenAllAlive", Status: "passed", Output: []string{"bully: exhausted, no violation: 12310 distinct states, 1 terminal, depth 18"}},
		labtest.Want{Test: "TestHiddenLeaderDown", Status: "passed", Output: []string{"bully: exhausted, no violation: 180 distinct states, 1 terminal, depth 13"}},
		labtest.Want{Test: "TestHiddenCrashAnywhere", Status: "passed", Output: []string{"bully: exhausted, no violation: 458 distinct states, 8 terminal, depth 14"}})
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles and elects
// nobody: every test but the lint fails, no live node knowing a leader,
// with a seed or a path to replay.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "skeleton", "bully.go"))
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestVet", Status: "passed"},
		labtest.Want{Test: "TestSweepAllAlive", Status: "failed", Visibility: "visible", Output: quoted(t, "skeleton TestSweepAllAlive")},
		labtest.Want{Test: "TestSweepLeaderDown", Status: "failed", Output: []string{"no progress: agreement violated: 3 live node(s) know no leader", "RINGLAB_SEED=1 go test -run '^TestSweepLeaderDown$' ./bully"}},
		labtest.Want{Test: "TestHiddenAllAlive", Status: "failed", Visibility: "hidden", Output: []string{"agreement violated after 1 steps", "RINGLAB_PATH=c1 go test"}},
		labtest.Want{Test: "TestHiddenLeaderDown", Status: "failed", Output: quoted(t, "skeleton TestHiddenLeaderDown")},
		labtest.Want{Test: "TestHiddenCrashAnywhere", Status: "failed", Output: []string{"agreement violated after 2 steps", "RINGLAB_PATH=c1,c2 go test"}})
	score(t, res, 1, b)
}

// TestNeverStoppingTheReplyTimerSplitsTheBrain: a submission that never
// stops its reply timer declares itself when it fires, an OK in hand and
// a higher node alive: the sweeps find two leaders, the searches the
// shortest such declaration.
func TestNeverStoppingTheReplyTimerSplitsTheBrain(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-keepstimer", "bully.go"))
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestSweepAllAlive", Status: "failed", Output: []string{"uniqueness violated: node 1 and node 4 each consider themselves leader (split-brain)", "RINGLAB_SEED=1 go test"}},
		labtest.Want{Test: "TestHiddenAllAlive", Status: "passed"},
		labtest.Want{Test: "TestHiddenLeaderDown", Status: "failed", Output: quoted(t, "buggy-keepstimer TestHiddenLeaderDown")},
		labtest.Want{Test: "TestHiddenCrashAnywhere", Status: "failed", Output: []string{"rightful leader violated after 4 steps", "RINGLAB_PATH=c2,d2-3,d3-2,t2:1 go test -run '^TestHiddenCrashAnywhere$' ./bully"}})
	score(t, res, 2, b)
}

// TestNoCoordinatorTimeoutLeavesNoLeader: a submission that waits for
// the COORD for ever once it has an OK passes every test without a crash
// after the start, and is left with no leader when the node that answered
// dies: only the crash search fails.
func TestNoCoordinatorTimeoutLeavesNoLeader(t *testing.T) {
	res, b := labtest.Grade(t, lab, filepath.Join("testdata", "buggy-nocoordtimeout", "bully.go"))
	labtest.Check(t, res, b,
		labtest.Want{Test: "TestSweepAllAlive", Status: "passed"},
		labtest.Want{Test: "TestSweepLeaderDown", Status: "passed"},
		labtest.Want{Test: "TestHiddenAllAlive", Status: "passed"},
		labtest.Want{Test: "TestHiddenLeaderDown", Status: "passed"},
		labtest.Want{Test: "TestHiddenCrashAnywhere", Status: "failed", Output: quoted(t, "buggy-nocoordtimeout TestHiddenCrashAnywhere")})
	score(t, res, 8, b)
}

// score fails t unless the submission scores want of 10.
func score(t *testing.T, res grade.Results, want float64, b []byte) {
	t.Helper()
	if res.Score != want {
		t.Errorf("scores %v of 10, want %v:\n%s", res.Score, want, b)
	}
}

// TestAlgorithmRefusesBadInput: each bad parameter of the lab's system is
// a usage error naming its flag.
func TestAlgorithmRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		give map[string]any
		want string
	}{
		{map[string]any{"nodes": 1}, "--nodes must be between 2 and 8, got 1"},
		{map[string]any{"nodes": 3, "down": 4}, "--down must be a node 1..3, or 0, got 4"},
		{map[string]any{"starters": "1,x"}, `--starters: want all or nodes 1..4 like 1,2, got "1,x"`},
		{map[string]any{"starters": "5"}, `--starters: want all or nodes 1..4 like 1,2, got "5"`},
	} {
		p := bully.Algorithm().Defaults()
		for k, v := range c.give {
			if err := p.Give(k, v); err != nil {
				t.Fatal(err)
			}
		}
		_, err := bully.Algorithm().Build(p, engine.Env{Runtime: "sim", MaxDelay: 1})
		if err == nil || err.Error() != c.want || cliutil.Code(err) != cliutil.ExitUsage {
			t.Errorf("%v: got %v (exit %d), want %q (exit %d)", c.give, err, cliutil.Code(err), c.want, cliutil.ExitUsage)
		}
	}
}
