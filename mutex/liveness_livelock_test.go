package mutex

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
)

// quorumLive is the quorum system of the split-vote tests: two
// coordinators that must both vote (m = n = 2), two participants asking
// for ever, each giving up after a timeout without a quorum.
var quorumLive = []string{"quorum", "--coordinators", "2", "--quorum", "2", "--nodes", "2", "--requests", "0", "--retry-timeout", "3", "--liveness"}

// splitVotes is the path to the split: C1 votes for P1 and C2 for P2,
// each has queued the other's request, and each participant holds one of
// the two votes it needs.
const splitVotes = "c3,c4,d3-1,d4-2,d4-1,d3-2,d1-3,d2-4"

func quorumArgs(extra ...string) []string {
	return append(append([]string{}, quorumLive...), extra...)
}

// The quorum system livelocks under the asynchronous timer model: a fair
// cycle on which both participants keep asking and nobody ever enters
// (no deadlock's promise, "while someone waits, someone eventually
// enters", is never kept). Under --timers any a participant may give up
// and ask again before its messages are delivered, so its links grow
// without bound; --max-flight 1 makes the space finite (54,245 states),
// and a lasso found within it is one of the unbounded system, its
// fairness judged against every enabled step. The lasso replays, with
// no entry on its cycle.
func TestLivenessQuorumLivelockLasso(t *testing.T) {
	out := lassoReplays(t, "no deadlock", quorumArgs("--timers", "any", "--max-flight", "1")...)
	if !strings.Contains(out, "on which nodes wait for the critical section and nobody ever enters it, for ever") ||
		!strings.Contains(out, "state constraint --max-flight 1: ") {
		t.Errorf("the verdict does not say what never happens:\n%s", out)
	}
	_, turn, _ := strings.Cut(out, "⟳ cycle")
	if turn == "" || strings.Contains(turn, "ENTER critical section") || !strings.Contains(turn, "no quorum for request") {
		t.Errorf("the lasso's turn has an entry, or nobody gives up:\n%s", out)
	}
}

// The split-vote livelock itself: from the split (each participant holds
// one vote of two), a staged search finds the cycle on which both give
// up, both ask again and the votes split again, for ever. It is fair:
// every message sent on it is delivered on it and every timer set fires
// on it; no request, release or coordinator step is left waiting. The
// same cycle written by hand as a --path lasso from the initial state
// replays to the same violation.
func TestLivenessQuorumSplitVotesLivelock(t *testing.T) {
	out := lassoReplays(t, "no deadlock", quorumArgs("--timers", "any", "--max-flight", "1", "--from-path", splitVotes)...)
	_, turn, _ := strings.Cut(out, "⟳ cycle")
	if strings.Count(turn, "(1 of 2 OKs): releasing") != 2 || strings.Contains(turn, "ENTER critical section") {
		t.Errorf("the cycle is not both participants giving up with one vote each:\n%s", out)
	}
	const lasso = "c3,c4|d3-1,d4-2,d4-1,d3-2,d1-3,d2-4,t3:1,t4:1,d3-1,d4-1,d1-4,d4-1,d4-2,d3-2,d2-3,d3-2,t3:2,t4:2"
	rout, rerr, code := runCLI(t, append(append([]string{"check"}, quorumArgs("--timers", "any", "--por=false")...), "--path", lasso)...)
	if code != cliutil.ExitViolation || !strings.Contains(rerr, "no deadlock violated: ") || strings.Contains(rout, "ENTER critical section") {
		t.Errorf("--path %s: exit %d\n%s\n%s", lasso, code, rout, rerr)
	}
}

// Unfair cycles are not claimed. Under --timers quiet (a timeout fires
// only when no message is in flight) the same system has cycles on which
// nobody enters (candidates), but each leaves a step enabled all the way
// round, so progress holds: ✓, with the whole space exhausted and no
// bound. A cycle on which P1 alone gives up and asks again while P2's
// request waits on its link is replayed as a --path: no violation, the
// step left untaken named.
func TestLivenessQuorumUnfairCyclesNotClaimed(t *testing.T) {
	out, errb, code := runCLI(t, append(append([]string{"check"}, quorumArgs("--timers", "quiet")...), "--property", "no-deadlock", "--format", "json")...)
	var f liveFigures
	if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 {
		t.Fatalf("exit %d (%v)\n%s\n%s", code, err, out, errb)
	}
	l := f.Liveness
	if !f.Exhausted || !l.Judged || l.Property != "" || l.Candidates == 0 || strings.Join(l.Properties, ",") != "no deadlock" {
		t.Errorf("%+v", f)
	}
	const unfair = "c3,c4|d3-1,d3-2,t3:1,d3-1,d3-2,d1-3,d2-3,d3-1,d3-2,t3:2"
	_, errb, code = runCLI(t, append(append([]string{"check"}, quorumArgs("--timers", "any", "--por=false")...), "--path", unfair)...)
	if code != cliutil.ExitNoTermination || !strings.Contains(errb, "the cycle is not fair: d4-1 stays enabled") {
		t.Errorf("--path %s: exit %d\n%s", unfair, code, errb)
	}
}

// The algorithms that promise progress keep it: with --requests 0 at
// N = 3, no deadlock (and no starvation) hold on every fair infinite
// schedule of the central coordinator and the token ring, and of
// Ricart-Agrawala at N = 2 (45 states); RINGLAB_BIG=1 adds
// Ricart-Agrawala at N = 3 (151,979 states, 0.7 s of CPU, 8 s under
// -race).
func TestLivenessProgressHolds(t *testing.T) {
	runs := [][]string{{"central", "3"}, {"token-ring", "3"}, {"ricart-agrawala", "2"}}
	if os.Getenv("RINGLAB_BIG") == "1" {
		runs = append(runs, []string{"ricart-agrawala", "3"})
	}
	for _, r := range runs {
		alg := r[0] + " N=" + r[1]
		out, errb, code := runCLI(t, "check", r[0], "--nodes", r[1], "--requests", "0", "--liveness", "--extremes=false", "--format", "json")
		var f liveFigures
		if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 {
			t.Fatalf("%s: exit %d, want 0 (%v)\n%s\n%s", alg, code, err, out, errb)
		}
		l := f.Liveness
		if !f.Exhausted || !l.Judged || l.Property != "" || l.Properties[0] != "no deadlock" || l.SCCs == 0 {
			t.Errorf("%s: %+v", alg, f)
		}
	}
}

// --max-flight is a non-negative number of messages.
func TestMaxFlightBadInput(t *testing.T) {
	out, errb, code := runCLI(t, "check", "central", "--max-flight", "-1")
	if code != cliutil.ExitUsage || out != "" || !strings.Contains(errb, "--max-flight") {
		t.Errorf("exit %d\n%s\n%s", code, out, errb)
	}
}

// A lasso given as a --path is judged by the promise its cycle never
// keeps, not by the verdicts where one turn ends: on the cycle where P1
// gives up every round P2 enters, so the run's progress is kept and only
// P1 starves, although where the turn ends both wait and nobody is in.
func TestLivenessPathLassoJudgedByTheCycle(t *testing.T) {
	const starves = "c3,c4|d3-1,d4-2,d3-2,d4-1,d1-3,d2-4,t3:1,d3-1,d1-4,c4,d3-2,d4-1,d4-2,t3:2,c4"
	rout, rerr, code := runCLI(t, append(append([]string{"check"}, quorumArgs("--timers", "quiet", "--por=false")...), "--path", starves)...)
	if code != cliutil.ExitViolation || !strings.Contains(rerr, "no starvation violated: ") || !strings.Contains(rout, "ENTER critical section") {
		t.Errorf("--path %s: exit %d\n%s\n%s", starves, code, rout, rerr)
	}
}
