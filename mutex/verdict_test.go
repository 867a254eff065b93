package mutex

import (
	"strings"
	"testing"
)

// Issue 33, defects 4 and 5, on the commands that showed them. A bound
// that leaves reachable states unexpanded proves nothing beyond it: exit
// 4, with how many (on main --max-flight 1 exited 0 where the unbounded
// check finds a violation; --max-clock too). A property that only a
// --liveness check can judge, asked for alone, is refused before the
// search (exit 2) naming --liveness (on main: exit 0, "not judged"). A
// goal not met within a state constraint is not unreachable (on main:
// exit 3, "unreachable").
func TestCheckBoundsAndUnjudgedAreNotProved(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lamport", "--nodes", "2", "--policy", "random", "--max-flight", "1"}, 4, "not proved: 8 states beyond the state constraint --max-flight 1 not expanded"},
		{[]string{"lamport", "--nodes", "2", "--policy", "random"}, 3, "VIOLATION"},
		{[]string{"lamport", "--nodes", "2", "--clock", "requests", "--requests", "0", "--max-clock", "2", "--property", "mutual-exclusion"}, 4, "beyond the state constraint --max-clock 2 not expanded"},
		{[]string{"central", "--nodes", "4", "--requests", "0", "--favour", "3", "--property", "no-starvation"}, 2, "--property no-starvation is judged where a run ends, and with --requests 0 no run ends (--requests N ends them): add --liveness"},
		{[]string{"central", "--nodes", "3", "--requests", "0"}, 4, "not proved: no deadlock, no starvation, judged where a run ends, and with --requests 0 no run ends"},
		// a goal no state within a bound meets may lie beyond it
		{[]string{"ricart-agrawala", "--nodes", "3", "--requests", "0", "--max-clock", "3", "--goal", "overtaken-twice"}, 4, "result: goal overtaken-twice not reached within --max-clock 3: no state within it meets it, and "},
		{[]string{"central", "--nodes", "3", "--requests", "0", "--liveness"}, 0, "proved: mutual exclusion, grant order, no deadlock, no starvation, over all 56 states and every fair cycle; termination is not asked, as with --requests 0 no run ends"},
		// no run of a workload without end terminates: it asks for no
		// termination (before: "proved: termination", exit 0)
		{[]string{"central", "--nodes", "3", "--requests", "0", "--property", "termination"}, 2, `--property: no property "termination" here`},
	} {
		out, errs, code := runCLI(t, append([]string{"check"}, c.args...)...)
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("check %s: exit %d, want %d and %q\n%s%s", strings.Join(c.args, " "), code, c.code, c.want, out, errs)
		}
	}
}
