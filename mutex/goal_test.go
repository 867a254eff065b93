package mutex

import (
	"encoding/json"
	"strconv"
	"testing"

	"ringlab/engine/cliutil"
)

// goalFigures is what these tests read of a goal search's JSON report.
type goalFigures struct {
	Goal      string
	Reached   bool
	Exhausted bool
	Steps     int
	Path      string
	Distinct  int64
	Property  string
	Replay    string
}

func goalCheck(t *testing.T, args ...string) (goalFigures, int) {
	t.Helper()
	out, errb, code := runCLI(t, append(append([]string{"check"}, args...), "--format", "json")...)
	var g goalFigures
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatalf("%v: exit %d, %v\n%s\n%s", args, code, err, out, errb)
	}
	return g, code
}

// --goal finds a shortest witness, which --path replays: all three
// Ricart-Agrawala nodes waiting at once takes their three requests and
// nothing else; three messages on one Lamport link (an ACK, a RELEASE and
// the next ACQUIRE) takes seven steps. A goal no reachable state meets is
// reported unreachable, exit 3 (the central coordinator's links never
// hold three messages with one request each).
func TestGoalWitness(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		steps int
		path  string
	}{
		{[]string{"ricart-agrawala", "--nodes", "3", "--goal", "all-waiting"}, 3, "c1,c2,c3"},
		{[]string{"lamport", "--nodes", "2", "--requests", "2", "--goal", "messages-on-a-link"}, 7, ""},
	} {
		g, code := goalCheck(t, tc.args...)
		if code != 0 || !g.Reached || g.Steps != tc.steps || tc.path != "" && g.Path != tc.path {
			t.Errorf("%v: exit %d, %+v; want reached in %d steps %s", tc.args, code, g, tc.steps, tc.path)
			continue
		}
		// the witness replays, and no shorter path reaches the goal
		_, errb, code := runCLI(t, append(append([]string{"check"}, tc.args...), "--path", g.Path)...)
		if code == cliutil.ExitUsage || code == cliutil.ExitInternal {
			t.Errorf("%v --path %s: exit %d\n%s", tc.args, g.Path, code, errb)
		}
		short, code := goalCheck(t, append(tc.args, "--max-depth", strconv.Itoa(tc.steps-1))...)
		if code != cliutil.ExitNoTermination || short.Reached {
			t.Errorf("%v within %d steps: exit %d, %+v; want not reached", tc.args, tc.steps-1, code, short)
		}
	}
	g, code := goalCheck(t, "central", "--nodes", "3", "--goal", "messages-on-a-link")
	if code != cliutil.ExitViolation || g.Reached || !g.Exhausted {
		t.Errorf("central messages-on-a-link: exit %d, %+v; want unreachable, exit 3", code, g)
	}
	for _, args := range [][]string{
		{"check", "central", "--goal", "all-waiting"}, // central's nodes name no state
		{"check", "lamport", "--from-path", "c1,"},
		{"check", "lamport", "--goal", "nope"},
		{"check", "lamport", "--from-path", "c9"},
		{"check", "lamport", "--from-path", "d1-2"}, // not enabled at the start
	} {
		if _, _, code := runCLI(t, args...); code != cliutil.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cliutil.ExitUsage)
		}
	}
}

// --from-path stages a search: from the state where node 2 has asked the
// coordinator (node 1) and node 3 has crashed, the system is safe and
// live with no further fault (a smaller space than the whole), but one
// more crash, counted from the stage (the prefix's own crash is not
// charged to --crashes 1), finds the coordinator's crash: a deadlock,
// whose path continues the stage and replays with it.
func TestStagedSearch(t *testing.T) {
	whole, code := goalCheck(t, "central", "--nodes", "3", "--requests", "2")
	if code != 0 || !whole.Exhausted {
		t.Fatalf("the whole space: exit %d %+v", code, whole)
	}
	staged, code := goalCheck(t, "central", "--nodes", "3", "--requests", "2", "--from-path", "c2,x3")
	if code != 0 || !staged.Exhausted || staged.Distinct >= whole.Distinct {
		t.Errorf("staged: exit %d %+v; want exhausted clean, fewer states than the whole space's %d", code, staged, whole.Distinct)
	}
	bad, code := goalCheck(t, "central", "--nodes", "3", "--requests", "2", "--from-path", "c2,x3", "--crashes", "1")
	if code != cliutil.ExitViolation || bad.Property != "no deadlock" || bad.Path != "x1" {
		t.Fatalf("staged with a crash: exit %d %+v; want the coordinator's crash x1, a deadlock", code, bad)
	}
	_, errb, code := runCLI(t, "check", "central", "--nodes", "3", "--requests", "2", "--from-path", "c2,x3", "--crashes", "1", "--path", "x1")
	if code != cliutil.ExitViolation {
		t.Errorf("%s: exit %d, want %d\n%s", bad.Replay, code, cliutil.ExitViolation, errb)
	}
}
