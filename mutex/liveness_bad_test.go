package mutex

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
	"ringlab/engine/statespace"
)

// lassoReplays checks a --liveness check's lasso: the check exits 3 with
// a liveness violation of property, prints a path with a cycle
// marker, and that path, replayed as printed, exits 3 too with the cycle's
// start marked (the cycle comes back to the state it began in, up to the
// clock shift and the renaming of request numbers). It returns the
// check's output.
func lassoReplays(t *testing.T, property string, args ...string) string {
	t.Helper()
	out, errb, code := runCLI(t, append([]string{"check"}, args...)...)
	if code != cliutil.ExitViolation || !strings.Contains(out, "result: LIVENESS VIOLATION of "+property+": ") {
		t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errb)
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
		t.Fatalf("%v: path %q, replay %q", args, path, replay)
	}
	again := strings.Fields(strings.TrimPrefix(strings.ReplaceAll(replay, "'", ""), "ringlab mutex "))
	rout, rerr, rcode := runCLI(t, again...)
	if rcode != cliutil.ExitViolation || !strings.Contains(rout, statespace.CycleNote) || !strings.Contains(rerr, " violated: ") {
		t.Fatalf("replay %v: exit %d\n%s\n%s", again, rcode, rout, rerr)
	}
	return out
}

// Quorum with split votes: two participants and two coordinators that
// must both vote (m = n = 2, so every entry needs every link drained and
// the space is finite). Without retries the votes split and both wait for
// ever (a deadlock). With --retry-timeout a participant that got one vote
// gives up, frees it and asks again; under --timers quiet the other then
// gets in, so someone always does, but the same participant can lose every
// round: a fair cycle on which P1 gives up, P2 enters, and P1's new request
// splits the votes again. The chapter's deterministic backoff does not
// help, since a timer's length orders nothing in the checker (it fires at
// any quiet moment), nor in a real run with unlucky delays.
func TestLivenessQuorumSplitVotesLasso(t *testing.T) {
	base := []string{"quorum", "--coordinators", "2", "--quorum", "2", "--nodes", "2", "--requests", "0", "--timers", "quiet"}
	out, errb, code := runCLI(t, append(append([]string{"check"}, base...), "--liveness")...)
	if code != cliutil.ExitViolation || !strings.Contains(out, "VIOLATION of no deadlock") ||
		!strings.Contains(out, "P1 and P2 still waiting for the critical section") {
		t.Errorf("without retries: exit %d\n%s\n%s", code, out, errb)
	}
	out = lassoReplays(t, "no starvation", append(base, "--retry-timeout", "3", "--liveness")...)
	_, trace, _ := strings.Cut(out, "\n\n")
	if !strings.Contains(trace, "no quorum for request") || !strings.Contains(trace, "ENTER critical section") {
		t.Errorf("the lasso's turn shows no give-up or no entry by the other:\n%s", trace)
	}
}

// Maekawa at N = 2 with --requests 0: the clock shift makes the space
// finite (without it every state has new timestamps), and every request is
// granted under weak fairness; a waiting node is overtaken at most once.
func TestLivenessMaekawaTwoNodes(t *testing.T) {
	out, errb, code := runCLI(t, "check", "maekawa", "--nodes", "2", "--requests", "0", "--liveness", "--format", "json")
	var f liveFigures
	if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 {
		t.Fatalf("exit %d (%v)\n%s\n%s", code, err, out, errb)
	}
	if !f.Exhausted || !f.Liveness.Judged || f.Liveness.Property != "" || f.Liveness.SCCs == 0 {
		t.Errorf("%+v", f)
	}
}

// The token ring whose lost token is never regenerated: everyone waits in
// a state where nothing can happen. The search reports it where the run
// ends (no deadlock); under --liveness that state is also an infinite
// behaviour that stutters there for ever (TLC's "stuttering"), printed as
// a lasso with an empty cycle that replays to the same verdict, the
// stutter marked. A prefix that does not end where nothing can happen is
// no stutter: refused as bad input.
func TestLivenessLostTokenStutters(t *testing.T) {
	args := []string{"token-ring", "--nodes", "3", "--requests", "0", "--drops", "1", "--liveness"}
	out, errb, code := runCLI(t, append([]string{"check"}, args...)...)
	const path = "c1,c1,c2,c3,l1-2|"
	if code != cliutil.ExitViolation || !strings.Contains(out, "result: VIOLATION of no deadlock") ||
		!strings.Contains(out, "stutters there for ever") || !strings.Contains(out, "--path '"+path+"'") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	rout, rerr, rcode := runCLI(t, append(append([]string{"check"}, args...), "--por=false", "--path", path)...)
	if rcode != cliutil.ExitViolation || !strings.Contains(rout, statespace.StutterNote) || !strings.Contains(rerr, "no deadlock violated") {
		t.Errorf("replay: exit %d\n%s\n%s", rcode, rout, rerr)
	}
	js, _, _ := runCLI(t, append(append([]string{"check"}, args...), "--format", "json")...)
	var f struct {
		Liveness struct {
			Stutter bool
			Path    string
		}
	}
	if err := json.Unmarshal([]byte(js), &f); err != nil || !f.Liveness.Stutter || f.Liveness.Path != path {
		t.Errorf("json (%v): %s", err, js)
	}
	_, errb, code = runCLI(t, append(append([]string{"check"}, args...), "--path", "c1,c1|")...)
	if code != cliutil.ExitUsage || !strings.Contains(errb, "--path") || !strings.Contains(errb, "stutter") {
		t.Errorf("a stutter where steps are enabled: exit %d\n%s", code, errb)
	}
	// Without --liveness the same violation, and no lasso.
	out, _, _ = runCLI(t, append([]string{"check"}, args[:len(args)-1]...)...)
	if strings.Contains(out, "stutter") || !strings.Contains(out, "VIOLATION of no deadlock") {
		t.Errorf("without --liveness:\n%s", out)
	}
}

// The token ring that regenerates a lost token (--regen-timeout), asked
// whether eventually exactly one token is left. Renaming the tokens'
// generations makes the space finite under --timers quiet (a node
// regenerates only when no message is in flight; under --timers any it
// may do so again and again and the tokens multiply without bound). The
// chapter's algorithm does not restore uniqueness: a node that times out
// while the token is only in use elsewhere makes a second one, and since
// nothing ever removes a surplus token (a node holding one passes the
// other on), two tokens circulate for ever on a fair cycle, with drops
// (at most the budget) or without.
func TestLivenessRegeneratedTokensNeverMerge(t *testing.T) {
	for _, drops := range []string{"0", "1"} {
		out := lassoReplays(t, "eventually one token", "token-ring", "--nodes", "3", "--requests", "0", "--drops", drops,
			"--regen-timeout", "5", "--timers", "quiet", "--liveness", "--property", "eventually-one-token")
		if !strings.Contains(out, "regenerated") {
			t.Errorf("drops %s: no regeneration on the lasso:\n%s", drops, out)
		}
		// a promise to the run as a whole: no node is named as owed it
		if !strings.Contains(out, "on which there is never exactly one token, for ever") || strings.Contains(out, "promise to P1") {
			t.Errorf("drops %s: the verdict names a node:\n%s", drops, out)
		}
	}
	// Without regeneration the property is not asked: progress and
	// starvation freedom are, and one token at every state (exit 0).
	out, errb, code := runCLI(t, "check", "token-ring", "--nodes", "3", "--requests", "0", "--timers", "quiet", "--liveness", "--format", "json")
	var f liveFigures
	if err := json.Unmarshal([]byte(out), &f); err != nil || code != cliutil.ExitOK || len(f.Liveness.Properties) != 2 {
		t.Errorf("exit %d (%v): %s\n%s", code, err, out, errb)
	}
}

// Maekawa at N = 3 with --requests 0: the gap narrowing (node.Climber)
// closes the space a node left behind kept infinite, and every request is
// granted under weak fairness: 116,854 states, one strongly connected
// component. P1, whose quorum is everyone, is overtaken at most 3 times;
// P2 and P3 without bound (a request may wait on its link while the others
// enter again and again). About 2 s, so behind RINGLAB_BIG=1 (-race
// multiplies it).
func TestLivenessMaekawaThreeNodes(t *testing.T) {
	if os.Getenv("RINGLAB_BIG") != "1" {
		t.Skip("about 2 s, more under -race: RINGLAB_BIG=1 runs it")
	}
	out, errb, code := runCLI(t, "check", "maekawa", "--nodes", "3", "--requests", "0", "--liveness", "--workers", "1", "--format", "json")
	var f struct {
		liveFigures
		Liveness struct {
			Judged bool
			SCCs   int64
			Bypass map[string]map[string]int
		}
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil || code != 0 {
		t.Fatalf("exit %d (%v)\n%s\n%s", code, err, out, errb)
	}
	b := f.Liveness.Bypass["no starvation"]
	if !f.Exhausted || f.Distinct != 116854 || !f.Liveness.Judged || f.Liveness.SCCs != 1 || b["P1"] != 3 || b["P2"] != -1 || b["P3"] != -1 {
		t.Errorf("%s", out)
	}
}

// Where the checker's exact reductions still leave a check without end
// infinite (a quorum smaller than the coordinators), or not known to be
// finite (Maekawa from four nodes), it refuses at once and says why,
// rather than search until the memory bound; a depth bound is accepted.
func TestInfiniteWorkloadsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		why  string
	}{
		{[]string{"check", "maekawa", "--nodes", "4", "--requests", "0"}, "needs --max-depth here: from 4 nodes on, Maekawa's space with no end is not known to be finite"},
		{[]string{"check", "quorum", "--coordinators", "3", "--quorum", "2", "--nodes", "2", "--requests", "0", "--liveness"}, "needs --max-flight or --max-depth here: the space is infinite"},
	} {
		out, errb, code := runCLI(t, tc.args...)
		if code != cliutil.ExitUsage || out != "" || !strings.Contains(errb, tc.why) {
			t.Errorf("%v: exit %d\n%s\n%s", tc.args, code, out, errb)
		}
	}
	if _, errb, code := runCLI(t, "check", "maekawa", "--nodes", "4", "--requests", "0", "--max-depth", "6"); code != cliutil.ExitNoTermination {
		t.Errorf("with --max-depth: exit %d\n%s", code, errb)
	}
	// The quorum's pile on a link is what --max-flight bounds: within it
	// the space ends and liveness is judged (a ✓ within the bound, which
	// proves nothing beyond it: exit 4).
	out, errb, code := runCLI(t, "check", "quorum", "--coordinators", "3", "--quorum", "2", "--nodes", "2", "--requests", "0", "--liveness", "--max-flight", "1")
	if code != cliutil.ExitNoTermination || !strings.Contains(out, "not proved: ") || !strings.Contains(out, "result: exhausted within --max-flight 1, no violation") || !strings.Contains(out, "liveness: ✓ no deadlock, no starvation") {
		t.Errorf("quorum 2 of 3 within --max-flight 1: exit %d\n%s\n%s", code, out, errb)
	}
}
