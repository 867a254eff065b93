package mutex

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"ringlab/engine/sim"
	"ringlab/engine/statespace"
)

// A search gives one result whatever its number of workers: the same
// verdict, the same counts (distinct, explored, transitions, terminal,
// ample-set expansions, states beyond the bound, the depth fully covered)
// and the same shortest counterexample, with and without the
// partial-order reduction, on spaces with and without a violation.
func TestWorkersGiveOneResult(t *testing.T) {
	cases := []struct {
		name string
		args []string // of `ringlab mutex check`
		viol bool
	}{
		{"lamport", []string{"lamport", "--nodes", "3"}, false},
		{"ricart-agrawala", []string{"ricart-agrawala", "--nodes", "3"}, false},
		{"lamport-tla", []string{"lamport", "--nodes", "3", "--clock", "requests", "--requests", "0", "--max-clock", "4"}, false},
		{"token-ring-crash", []string{"token-ring", "--nodes", "3", "--crashes", "1"}, true}, // a deadlock, judged at a terminal state
		// violations: each has several shortest paths (the nodes are
		// interchangeable), and every worker count must pick the same one
		{"token-regenerated", []string{"token-ring", "--nodes", "3", "--regen-timeout", "5"}, true},
		{"ra-timeout-reply", []string{"ricart-agrawala", "--nodes", "3", "--reply-timeout", "5"}, true},
		{"central-slow-holder", []string{"central", "--nodes", "3", "--grant-timeout", "10"}, true},
		{"lamport-nonfifo", []string{"lamport", "--nodes", "2", "--policy", "random"}, true},
	}
	for _, c := range cases {
		for _, por := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/por=%v", c.name, por), func(t *testing.T) {
				if testing.Short() && c.name == "lamport-tla" {
					t.Skip("a few seconds a search; run without -short")
				}
				var want statespace.Result
				for _, w := range []int{1, 2, 4} {
					cfg := checkFlagsConfig(t, c.args...)
					cfg.POR, cfg.Workers = por, w
					res, err := statespace.Search(context.Background(), cfg)
					if err != nil {
						t.Fatal(err)
					}
					if res.Workers != w {
						t.Fatalf("workers=%d: the search used %d", w, res.Workers)
					}
					if (res.Violation != nil) != c.viol {
						t.Fatalf("workers=%d: violation %v, want one: %v", w, res.Violation, c.viol)
					}
					if !c.viol && !res.Exhausted {
						t.Fatalf("workers=%d: not exhausted (%s)", w, res.Stop)
					}
					if w == 1 {
						want = res
						continue
					}
					if got, exp := figures(res), figures(want); got != exp {
						t.Errorf("workers=%d:\n got %s\nwant %s (workers=1)", w, got, exp)
					}
				}
			})
		}
	}
}

// figures are the parts of a result that must not depend on the workers.
func figures(r statespace.Result) string {
	v := "none"
	if r.Violation != nil {
		v = fmt.Sprintf("%s (%s) at %s", r.Violation.Property, r.Violation.Detail, statespace.FormatPath(r.Path))
	}
	return fmt.Sprintf("distinct %d explored %d transitions %d terminal %d depth %d covered %d reduced %d beyond %d shortest %d exhausted %v stop %q violation %s",
		r.Distinct, r.Explored, r.Transitions, r.Terminal, r.Depth, r.Covered, r.Reduced, r.Beyond, r.ShortestStates, r.Exhausted, r.Stop, v)
}

// checkFlagsConfig is checkConfig that also reads the search's --policy
// and --crashes.
func checkFlagsConfig(tb testing.TB, args ...string) statespace.Config {
	tb.Helper()
	var rest []string
	var policy sim.Policy
	crashes := 0
	for k := 0; k < len(args); k++ {
		switch args[k] {
		case "--policy":
			p, err := sim.ParsePolicy(args[k+1])
			if err != nil {
				tb.Fatal(err)
			}
			policy, k = p, k+1
		case "--crashes":
			n, err := strconv.Atoi(args[k+1])
			if err != nil {
				tb.Fatal(err)
			}
			crashes, k = n, k+1
		default:
			rest = append(rest, args[k])
		}
	}
	cfg := checkConfig(tb, rest...)
	cfg.Policy, cfg.Crashes = policy, crashes
	return cfg
}
