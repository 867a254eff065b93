package mutex

import (
	"context"
	"strings"
	"testing"

	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// A coordinator that serves P1 and P2 before P3 (--favour 3) breaks the
// order requests reached it: the check finds it (exit 3) after 10 steps,
// a shortest path, and its --path replays to the same violation, word for
// word. A search that judged the grant order on one path to each state
// passed it.
func TestCheckFindsFavouredOvertaking(t *testing.T) {
	args := []string{"check", "central", "--nodes", "4", "--favour", "3"}
	checkReplays(t, runCLI, "mutex", 10, args...)
	if out, _, _ := runCLI(t, args...); !strings.Contains(out, "result: VIOLATION of grant order after 10 steps") {
		t.Errorf("%v: want the grant order broken:\n%s", args, out)
	}
}

// The browser explorer's fates agree with the search: from the initial
// state a break of the grant order is reachable, no state along the
// counterexample is safe, and the state its last step reaches is one
// (unavoidable); without the bias every state is safe.
func TestFatesSeeTheGrantOrder(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		broken bool
	}{
		{[]string{"central", "--nodes", "4", "--favour", "3"}, true},
		{[]string{"central", "--nodes", "4"}, false},
	} {
		cfg := checkConfig(t, tc.args...)
		res, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		x, err := explore.NewExplorer(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x.Analyze(context.Background(), 100_000)
		if err != nil {
			t.Fatal(err)
		}
		v, err := x.At(res.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !tc.broken {
			if res.Violation != nil {
				t.Fatalf("%v: %v", tc.args, res.Violation)
			}
			for i, k := range v.Keys {
				if fate, _ := f.Fate(k); fate != explore.Safe {
					t.Errorf("%v: state %d of the path is %v, want safe", tc.args, i, fate)
				}
			}
			continue
		}
		if res.Violation == nil || res.Violation.Property != "grant order" || v.Violation == nil || v.Violation.Property != "grant order" {
			t.Fatalf("%v: search %v, the path's view %v", tc.args, res.Violation, v.Violation)
		}
		for i, k := range v.Keys {
			fate, ok := f.Fate(k)
			switch {
			case !ok || fate == explore.Safe:
				t.Errorf("%v: state %d of %s is %v (known %v), want not safe", tc.args, i, statespace.FormatPath(res.Path), fate, ok)
			case i == 0 && fate != explore.Reachable, i == len(v.Keys)-1 && fate != explore.Unavoidable:
				t.Errorf("%v: state %d of %s is %v", tc.args, i, statespace.FormatPath(res.Path), fate)
			}
		}
	}
}
