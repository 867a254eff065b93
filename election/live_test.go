package election

import (
	"os"
	"testing"
	"testing/synctest"
)

// everyElection is a run of each election, with every verdict true, that
// the tests of the other runtimes make too.
var everyElection = [][]string{
	{"ring", "--initiators", "all"},
	{"anonymous"},
	{"idlist", "--nodes", "12", "--layout", "random"},
	{"chang-roberts", "--nodes", "50", "--layout", "random"},
	{"franklin", "--nodes", "16", "--layout", "random"},
	{"bully", "--scenario", "chapter"},
	{"bully", "--nodes", "6", "--initiators", "1,2"},
	{"yoyo", "--topology", "grid", "--nodes", "9", "--layout", "random"},
}

// The same commands on the goroutine runtime (--runtime live), under
// testing/synctest's fake clock so Bully's timers cost no wall time: every
// algorithm elects the right leader, and the specification's output is
// unchanged (one message in flight at a time, so the order is fixed).
func TestLiveRuntime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, args := range everyElection {
			r := runCLI(t, append(args, "--runtime", "live", "--format", "none", "--seed", "1")...)
			r.want(t, 0, "on live", "✓ termination", "✓ uniqueness", "✓ agreement", "✓ correctness")
		}
		r := runCLI(t, "ring", "--lang", "pt", "--runtime", "live")
		r.want(t, 0)
		if want, err := os.ReadFile("testdata/ring_expected_pt.txt"); err != nil || r.out != string(want) {
			t.Errorf("live: stdout is not the specification's expected output (%v):\n%s", err, r.out)
		}
		r = runCLI(t, "anonymous", "--initiators", "all", "--runtime", "live", "--format", "none")
		r.want(t, 3, "✗ uniqueness")
	})
}
