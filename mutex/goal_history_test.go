package mutex

import (
	"strconv"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
)

// overtaken-twice is a goal over history: it reads what happened (a
// request, then two entries by others before it is granted), which no
// state's nodes and messages show. Its shortest witnesses: the token
// ring's in 7 steps (P1 asks just after passing the token on; P2 and P3,
// who asked before, enter first); Ricart-Agrawala's in 12 and Lamport's
// in 13 at N = 3 (P1 and P2 ask first, P3 asks before either has entered
// and sees both enter, with the smaller timestamps). The central coordinator at N = 3 (two processes,
// one request each) cannot reach it: exhausted, exit 3. Each witness
// replays with --path to a run in which two entries happened while a
// node waits (a path that stops there: no starvation is not reached),
// and no shorter path reaches the goal.
func TestGoalOvertakenTwice(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		steps int
	}{
		{[]string{"token-ring", "--nodes", "3"}, 7},
		{[]string{"ricart-agrawala", "--nodes", "3"}, 12},
		{[]string{"lamport", "--nodes", "3"}, 13},
		{[]string{"central", "--nodes", "3"}, 0},
	} {
		args := append(tc.args, "--goal", "overtaken-twice")
		g, code := goalCheck(t, args...)
		if tc.steps == 0 {
			if code != cliutil.ExitViolation || g.Reached || !g.Exhausted {
				t.Errorf("%v: exit %d, %+v; want unreachable, exhausted, exit 3", args, code, g)
			}
			continue
		}
		if code != 0 || !g.Reached || g.Steps != tc.steps {
			t.Errorf("%v: exit %d, %+v; want reached in %d steps", args, code, g, tc.steps)
			continue
		}
		out, errb, code := runCLI(t, append(append([]string{"check"}, tc.args...), "--path", g.Path)...)
		if code != cliutil.ExitNoTermination || !strings.Contains(out, "entries: 2\n") || !strings.Contains(out, "– no starvation: not reached") {
			t.Errorf("%v --path %s: exit %d\n%s\n%s", tc.args, g.Path, code, out, errb)
		}
		short, code := goalCheck(t, append(args, "--max-depth", strconv.Itoa(tc.steps-1))...)
		if code != cliutil.ExitNoTermination || short.Reached {
			t.Errorf("%v within %d steps: exit %d, %+v; want not reached", args, tc.steps-1, code, short)
		}
	}
}
