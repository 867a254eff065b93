package election

import (
	"fmt"
	"strings"
	"testing"

	"ringlab/internal/cliutil"
)

// checkReplays runs a check that must find a violation after exactly
// steps steps, runs the replay command it printed, and compares the
// replay's output with the check's trace byte for byte.
func checkReplays(t *testing.T, steps int, args ...string) {
	t.Helper()
	r := runCLI(t, args...)
	if r.code != cliutil.ExitViolation {
		t.Fatalf("%v: exit %d, want %d\n%s\n%s", args, r.code, cliutil.ExitViolation, r.out, r.errb)
	}
	head, trace, ok := strings.Cut(r.out, "\n\n")
	if !ok {
		t.Fatalf("no trace after the figures:\n%s", r.out)
	}
	if want := fmt.Sprintf(" after %d steps (a shortest path)", steps); !strings.Contains(head, want) {
		t.Errorf("%v: want a violation%s, got:\n%s", args, want, head)
	}
	var replay string
	for line := range strings.SplitSeq(head, "\n") {
		if v, ok := strings.CutPrefix(line, "replay: "); ok {
			replay = v
		}
	}
	rr := runCLI(t, strings.Fields(strings.TrimPrefix(replay, "ringlab election "))...)
	if rr.code != cliutil.ExitViolation {
		t.Fatalf("replay %q: exit %d\n%s\n%s", replay, rr.code, rr.out, rr.errb)
	}
	if rr.out != trace {
		t.Errorf("replay %q differs from the check's trace:\n--- check\n%s\n--- replay\n%s", replay, trace, rr.out)
	}
}

// The chapter's election warnings as shortest counterexamples.
func TestCheckFindsShortestCounterexamples(t *testing.T) {
	// the anonymous ring: two candidates both win
	checkReplays(t, 8, "check", "anonymous", "--nodes", "3", "--initiators", "all")
	// Bully: a reply timeout that fires before the OK arrives
	checkReplays(t, 3, "check", "bully", "--nodes", "3", "--initiators", "2")
	// YoYo on a graph split in two: each piece elects its own leader
	checkReplays(t, 10, "check", "yoyo", "--graph", "1-2,3-4", "--allow-disconnected")
}

// subsets lists every non-empty set of initiators of n nodes, as flags.
func subsets(n int) []string {
	var out []string
	for mask := 1; mask < 1<<n; mask++ {
		var parts []string
		for i := range n {
			if mask&(1<<i) != 0 {
				parts = append(parts, fmt.Sprint(i+1))
			}
		}
		out = append(out, strings.Join(parts, ","))
	}
	return out
}

// The correct elections exhaust their small spaces with no violation: the
// seed's ring and Chang-Roberts at N = 4 and 5 with every initiator set,
// Franklin, Bully (timeouts longer than any delay) and YoYo at small N.
func TestCheckExhaustsCorrectElections(t *testing.T) {
	var runs [][]string
	for _, n := range []int{4, 5} {
		for _, init := range subsets(n) {
			for _, algo := range []string{"ring", "chang-roberts"} {
				runs = append(runs, []string{algo, "--nodes", fmt.Sprint(n), "--layout", "random", "--initiators", init})
			}
		}
	}
	runs = append(runs,
		[]string{"ring", "--initiators", "all", "--fix", "extinction"},
		[]string{"franklin", "--nodes", "4", "--layout", "random"},
		[]string{"bully", "--nodes", "3", "--initiators", "1,2", "--timers", "quiet"},
		[]string{"bully", "--nodes", "4", "--initiators", "1", "--timers", "quiet"},
		[]string{"yoyo", "--graph", "1-2,2-3,3-1"},
		[]string{"yoyo", "--graph", "1-2,2-3,3-4", "--ids", "3,1,4,2"},
	)
	if testing.Short() {
		runs = runs[len(runs)-8:]
	}
	for _, args := range runs {
		r := runCLI(t, append([]string{"check"}, args...)...)
		if r.code != 0 || !strings.Contains(r.out, "result: exhausted, no violation") {
			t.Errorf("%v: exit %d\n%s\n%s", args, r.code, r.out, r.errb)
		}
	}
}
