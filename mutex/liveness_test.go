package mutex

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
	"ringlab/engine/statespace"
)

// liveFigures is what these tests read of a --liveness check's JSON.
type liveFigures struct {
	Distinct  int64
	Exhausted bool
	Property  string
	Liveness  struct {
		Judged                  bool
		Properties              []string
		Promises                int
		SCCs, Candidates        int64
		Property, Prefix, Cycle string
		Path, Replay, Fairness  string
	}
}

// Starvation freedom of the chapter's central coordinator, and progress
// (no deadlock: while someone waits, someone enters), judged over every
// fair infinite schedule of nodes that ask for ever (--requests 0): ✓ at
// N = 3 and 4, where unfair cycles that keep a node waiting exist
// (candidates) and fairness rules them out.
func TestLivenessCentralStarvesNobody(t *testing.T) {
	for _, n := range []string{"3", "4"} {
		out, errb, code := runCLI(t, "check", "central", "--nodes", n, "--requests", "0", "--liveness", "--format", "json")
		var f liveFigures
		if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 {
			t.Fatalf("n=%s: exit %d (%v)\n%s\n%s", n, code, err, out, errb)
		}
		l := f.Liveness
		if !f.Exhausted || !l.Judged || l.Property != "" || l.Candidates == 0 || l.SCCs == 0 ||
			strings.Join(l.Properties, ", ") != "no deadlock, no starvation" || l.Fairness != statespace.Fairness {
			t.Errorf("n=%s: %+v", n, f)
		}
	}
}

// The known-bad coordinator that favours P1 and P2 (--favour 3) starves
// P3 (it breaks the grant order first, hence --property): a lasso, whose printed replay (prefix|cycle) runs again to the same
// verdict with the cycle marked, and draws as an SVG with the marker.
func TestLivenessFavouringCoordinatorStarvesALasso(t *testing.T) {
	args := []string{"check", "central", "--nodes", "4", "--requests", "0", "--favour", "3", "--property", "no-starvation", "--liveness"}
	out, errb, code := runCLI(t, args...)
	if code != cliutil.ExitViolation || !strings.Contains(out, "result: LIVENESS VIOLATION of no starvation: ") ||
		!strings.Contains(out, "the promise to P3 stays owed for ever") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	var replay, path string
	for line := range strings.SplitSeq(out, "\n") {
		if r, ok := strings.CutPrefix(line, "replay: "); ok && replay == "" {
			replay = r
		}
		if r, ok := strings.CutPrefix(line, "path: "); ok {
			path = r
		}
	}
	if !strings.Contains(path, "|") || !strings.HasSuffix(replay, "--path '"+path+"'") {
		t.Fatalf("path %q, replay %q", path, replay)
	}
	again := strings.Fields(strings.TrimPrefix(strings.ReplaceAll(replay, "'", ""), "ringlab mutex "))
	rout, rerr, rcode := runCLI(t, again...)
	if rcode != cliutil.ExitViolation || !strings.Contains(rout, statespace.CycleNote) {
		t.Fatalf("replay %v: exit %d\n%s\n%s", again, rcode, rout, rerr)
	}
	if _, trace, _ := strings.Cut(out, "\n\n"); !strings.HasPrefix(rout, strings.SplitN(trace, "\nmutex central", 2)[0]) {
		t.Errorf("the replay's trace differs from the check's:\n--- check\n%s\n--- replay\n%s", trace, rout)
	}
	svg, _, scode := runCLI(t, append(again, "--format", "svg")...)
	if scode != cliutil.ExitViolation || !strings.Contains(svg, "<svg") || !strings.Contains(svg, "⟳ cycle") {
		t.Errorf("svg: exit %d, marker %v\n%.300s", scode, strings.Contains(svg, "⟳ cycle"), svg)
	}
	// The same space without --liveness: no starvation, asked alone, is
	// judged where a run ends, and none does: refused, naming --liveness.
	out, errb, code = runCLI(t, args[:len(args)-1]...)
	if code != cliutil.ExitUsage || out != "" || !strings.Contains(errb, "add --liveness") {
		t.Errorf("without --liveness: exit %d, want 2\n%s%s", code, out, errb)
	}
}

// A lasso that does not close, or a second "|", is refused as bad input.
func TestLivenessBadLassoIsUsage(t *testing.T) {
	for _, p := range []string{"c2|c3", "c2|c3|c2", "c2|"} {
		_, errb, code := runCLI(t, "check", "central", "--nodes", "3", "--requests", "0", "--path", p)
		if code != cliutil.ExitUsage || !strings.Contains(errb, "--path") || strings.Count(strings.TrimSpace(errb), "\n") > 0 {
			t.Errorf("--path %q: exit %d\n%s", p, code, errb)
		}
	}
}

// The token ring with --requests 0: the token circulates for ever and
// every waiting node gets it (✓), and one token, judged at every state,
// holds (40 states, 92 transitions: every property proved, exit 0); a
// lost token that is never regenerated leaves everyone waiting in a state
// where nothing can happen, a deadlock the search reports where the run
// ends, before any cycle is judged.
func TestLivenessTokenRing(t *testing.T) {
	out, errb, code := runCLI(t, "check", "token-ring", "--nodes", "3", "--requests", "0", "--liveness")
	if code != cliutil.ExitOK || !strings.Contains(out, "liveness: ✓ no deadlock, no starvation") ||
		!strings.Contains(out, "\nstates: 40 distinct, 40 explored (0 by an ample set), 92 transitions, 0 terminal; depth 7\n") ||
		!strings.Contains(out, "\nproved: mutual exclusion, one token, grant order, no deadlock, no starvation, over all 40 states and every fair cycle;") {
		t.Errorf("exit %d\n%s\n%s", code, out, errb)
	}
	out, errb, code = runCLI(t, "check", "token-ring", "--nodes", "3", "--requests", "0", "--drops", "1", "--liveness")
	if code != cliutil.ExitViolation || !strings.Contains(out, "VIOLATION of no deadlock") || !strings.Contains(out, "l1-2") {
		t.Errorf("lost token: exit %d\n%s\n%s", code, out, errb)
	}
}

// Under --max-clock every cycle of Ricart-Agrawala runs through a clock
// beyond the bound, so none is left: the report says its ✓ is vacuous,
// and the check proves nothing (exit 4).
func TestLivenessUnderMaxClockSaysTheBoundCutsCycles(t *testing.T) {
	out, errb, code := runCLI(t, "check", "ricart-agrawala", "--nodes", "3", "--requests", "0", "--max-clock", "5", "--liveness")
	if code != cliutil.ExitNoTermination || !strings.Contains(out, "(0 with a cycle)") ||
		!strings.Contains(out, "liveness: the state constraint --max-clock 5 cut every cycle (none is left within it): the ✓ below is vacuous") {
		t.Errorf("exit %d\n%s\n%s", code, out, errb)
	}
}

// Bounded bypass over every schedule: in the token ring a waiting node is
// overtaken at most N-1 times (each other node once, as the token comes
// round), exactly N-1 in the worst schedule; the central coordinator
// promises no bound from the moment of asking (a request may be slow on
// its way while the others go in again and again).
func TestLivenessBypass(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int64
	}{
		{[]string{"token-ring", "--nodes", "3"}, 2},
		{[]string{"token-ring", "--nodes", "4"}, 3},
		{[]string{"central", "--nodes", "3"}, -1},
	} {
		out, errb, code := runCLI(t, append(append([]string{"check"}, tc.args...), "--requests", "0", "--liveness", "--format", "json")...)
		var f struct {
			Liveness struct{ Bypass map[string]map[string]int64 }
		}
		if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 && !(tc.args[0] == "token-ring" && code == cliutil.ExitNoTermination) { // one token: not judged
			t.Fatalf("%v: exit %d (%v)\n%s\n%s", tc.args, code, err, out, errb)
		}
		by := f.Liveness.Bypass["no starvation"]
		if len(by) == 0 {
			t.Errorf("%v: no bypass figures: %s", tc.args, out)
		}
		for who, most := range by {
			if most != tc.want {
				t.Errorf("%v: %s overtaken at most %d times, want %d", tc.args, who, most, tc.want)
			}
		}
	}
}

// Lamport's algorithm (the paper's clock) with --requests 0 is finite
// once the clocks are shifted, what a receiver will not read is forgotten
// and the timestamps below every clock are renumbered, and starves nobody
// under weak fairness. N = 2 here (86 states); RINGLAB_BIG=1 adds N = 3
// (2,800,532 states, about a minute and 1 GiB). The promises are one per
// node (no starvation) and one to the run (no deadlock).
func TestLivenessLamportStarvesNobody(t *testing.T) {
	sizes := []string{"2"}
	if os.Getenv("RINGLAB_BIG") == "1" {
		sizes = append(sizes, "3")
	}
	for _, n := range sizes {
		out, errb, code := runCLI(t, "check", "lamport", "--nodes", n, "--requests", "0", "--liveness", "--extremes=false", "--format", "json")
		var f liveFigures
		if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 {
			t.Fatalf("N = %s: exit %d (%v)\n%s\n%s", n, code, err, out, errb)
		}
		if !f.Exhausted || !f.Liveness.Judged || f.Liveness.Property != "" || f.Liveness.SCCs == 0 || f.Liveness.Promises != int(n[0]-'0')+1 {
			t.Errorf("N = %s: %+v", n, f)
		}
		t.Logf("N = %s: %d states, %d SCCs", n, f.Distinct, f.Liveness.SCCs)
	}
}
