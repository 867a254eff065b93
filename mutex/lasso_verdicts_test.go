package mutex

import (
	"strings"
	"testing"

	"ringlab/engine/cliutil"
)

// verdictLines are the lines of out that give a verdict (✓, ✗ or –).
func verdictLines(out string) []string {
	var vs []string
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, "✓ ") || strings.HasPrefix(line, "✗ ") || strings.HasPrefix(line, "– ") {
			vs = append(vs, line)
		}
	}
	return vs
}

// A trace shows the verdicts of the state it shows. Along the favouring
// coordinator's lasso P1 enters on every turn and P3 never does: the
// cycle refutes the promise to P3 alone, and what is judged where a run
// ends (no deadlock) is not reached, not violated; termination, which a
// workload without end does not ask for, is not judged at all. The
// lasso's --path replay prints the same verdicts.
func TestLassoVerdictsAreTheCyclesOwn(t *testing.T) {
	out, errb, code := runCLI(t, "check", "central", "--nodes", "4", "--requests", "0", "--liveness", "--favour", "3", "--property", "no-starvation")
	if code != cliutil.ExitViolation {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	vs := strings.Join(verdictLines(out+errb), "\n")
	for _, want := range []string{
		"✗ no starvation: the promise to P3 stays owed all the way round the cycle",
		"– no deadlock: not reached (the lasso's cycle repeats for ever",
	} {
		if !strings.Contains(vs, want) {
			t.Errorf("verdicts lack %q:\n%s", want, vs)
		}
	}
	if strings.Contains(vs, "P1") || strings.Contains(vs, "✗ no deadlock") || strings.Contains(vs, "termination") {
		t.Errorf("a verdict the cycle does not refute:\n%s", vs)
	}
	var replay string
	for line := range strings.SplitSeq(out, "\n") {
		if r, ok := strings.CutPrefix(line, "replay: "); ok && replay == "" {
			replay = r
		}
	}
	again := strings.Fields(strings.TrimPrefix(strings.ReplaceAll(replay, "'", ""), "ringlab mutex "))
	rout, rerr, _ := runCLI(t, again...)
	if got := strings.Join(verdictLines(rout+rerr), "\n"); got != vs {
		t.Errorf("the --path replay's verdicts differ:\n--- check\n%s\n--- replay\n%s", vs, got)
	}
}

// A safety counterexample stops where the property breaks: what it did
// not reach (termination, no deadlock, no starvation) is not reached.
func TestShortSafetyPathLeavesEndVerdictsNotReached(t *testing.T) {
	out, errb, code := runCLI(t, "check", "central", "--nodes", "4", "--favour", "3")
	if code != cliutil.ExitViolation {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	vs := verdictLines(out + errb)
	var bad []string
	for _, v := range vs {
		if strings.HasPrefix(v, "✗ ") {
			bad = append(bad, v)
		}
	}
	if len(bad) != 1 || !strings.HasPrefix(bad[0], "✗ grant order: ") ||
		!strings.Contains(strings.Join(vs, "\n"), "– termination: not reached (the path ends before the run does)") {
		t.Errorf("verdicts:\n%s", strings.Join(vs, "\n"))
	}
}
