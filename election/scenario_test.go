package election

import (
	"encoding/json"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

// The anonymous ring of the course chapter on leader election: one candidate on two processes gives one
// leader; both candidates at once give two, and the uniqueness checker
// says so (exit 3): symmetry cannot be broken without ids.
func TestAnonymousRing(t *testing.T) {
	one := runCLI(t, "anonymous", "--seed", "1")
	one.want(t, 0, "P1       leader is id 1", "messages: 4 (VoteForMe 2, WeHaveALeader 2)", "✓ uniqueness", "✓ agreement")
	checkGolden(t, "anonymous_one_candidate.golden", one.out)

	both := runCLI(t, "anonymous", "--initiators", "all", "--seed", "1")
	both.want(t, cliutil.ExitViolation, "VIOLATION of uniqueness: P1 and P2 each consider themselves leader",
		"✗ uniqueness", "messages: 4 (VoteForMe 2, WeHaveALeader 2)")
	checkGolden(t, "anonymous_both_candidates.golden", both.out)
}

// Bully, the chapter's worked example: 5 is down, 2 and 3 start, 4
// answers both, 3 answers 2, 1 starts later and 2, 3, 4 answer; 4's
// ELECTION to 5 goes unanswered and 4 sends COORD(4) to all.
func TestBullyWorkedExample(t *testing.T) {
	s := summary(t, 0, "bully", "--scenario", "chapter")
	if s.ByType["ELECTION"] != 10 || s.ByType["OK"] != 6 || s.ByType["COORD"] != 4 || s.Dropped != 5 {
		t.Errorf("%v, %d dropped; want ELECTION 10, OK 6, COORD 4, 5 dropped at the crashed 5", s.ByType, s.Dropped)
	}
	r := runCLI(t, "bully", "--scenario", "chapter", "--seed", "1")
	r.want(t, 0, "N4       send  COORD", "✓ correctness: leader should be id 4 (the highest live id)")
	checkGolden(t, "bully_chapter.golden", r.out)
}

// Bully, "too short gives split-brain": reply timeout 3, messages to 5
// slowed to 5 ticks, 4 starts; 4 declares at tick 3 and 5 at tick 5.
func TestBullySplitBrain(t *testing.T) {
	r := runCLI(t, "bully", "--scenario", "split-brain", "--seed", "1")
	r.want(t, cliutil.ExitViolation, "t=5      N5       VIOLATION of uniqueness: N4 and N5 each consider themselves leader (split-brain)",
		"✗ uniqueness: N4 and N5")
	checkGolden(t, "bully_split_brain.golden", r.out)
	// The same run with safe timeouts (longer than the round trip) is fine.
	runCLI(t, "bully", "--initiators", "4", "--slow", "5+4@0-1000", "--reply-timeout", "20", "--seed", "1").want(t, 0, "✓ uniqueness")
}

// YoYo: "partitions of the network give two leaders". Two pieces, a
// leader in each, and the checkers report it (exit 3).
func TestYoyoPartition(t *testing.T) {
	r := runCLI(t, "yoyo", "--graph", "1-2,2-3,4-5", "--allow-disconnected", "--seed", "1")
	r.want(t, cliutil.ExitViolation, "✗ uniqueness: N3 and N1 end as leaders", "connected: false")
	checkGolden(t, "yoyo_partition.golden", r.out)
}

// Every algorithm's defaults run clean, on the simulator, in every format.
func TestDefaultsEveryFormat(t *testing.T) {
	for _, a := range Algorithms() {
		for _, f := range trace.Formats {
			r := runCLI(t, a.Name, "--format", f, "--seed", "2")
			r.want(t, 0)
			starts := map[string]string{"mermaid": "%% ringlab: election " + a.Name, "svg": "<?xml", "chrome-trace": "{", "shiviz": trace.ShivizRegex, "json": `{"v":1,"kind":"header"`}
			if want, ok := starts[f]; ok && !strings.HasPrefix(r.out, want) {
				t.Errorf("%s: %s output starts %q, want %q", a.Name, f, r.out[:min(len(r.out), 40)], want)
			}
			if f == "chrome-trace" && !json.Valid([]byte(r.out)) {
				t.Errorf("%s: the chrome trace is not valid JSON", a.Name)
			}
			if f == "none" && (r.out != "" || !strings.Contains(r.errb, "✓ termination")) {
				t.Errorf("%s --format none: stdout %q, stderr %q", a.Name, r.out, r.errb)
			}
		}
	}
}

// Generated topologies and layouts elect the right leader.
func TestGeneratedConfigurations(t *testing.T) {
	for _, args := range [][]string{
		{"yoyo", "--topology", "grid", "--nodes", "12", "--layout", "random"},
		{"yoyo", "--topology", "random", "--nodes", "30", "--layout", "descending"},
		{"yoyo", "--graph", "1-2,2-3,3-1,3-4"},
		{"franklin", "--nodes", "33", "--layout", "random"},
		{"idlist", "--nodes", "9", "--layout", "random", "--initiators", "2,5"},
		{"chang-roberts", "--nodes", "40", "--layout", "random", "--initiators", "3"},
		{"bully", "--nodes", "7", "--layout", "random", "--crash", "3@0"},
		{"ring", "--nodes", "20", "--layout", "random", "--initiators", "1,7,9", "--policy", "random"},
	} {
		runCLI(t, append(args, "--format", "none", "--seed", "4")...).want(t, 0, "✓ uniqueness", "✓ agreement", "✓ correctness")
	}
}
