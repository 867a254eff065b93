package election

import (
	"testing"
)

// "Every live node eventually takes a leader" (Agreement's promise),
// judged with --liveness: Bully under quiet timers and the ring have no
// cycle at all, so every infinite-schedule verdict is the verdict where
// runs end, and both hold; a crash before anyone starts leaves the others
// waiting for ever with no leader, which the end-of-run verdicts already
// report: termination first.
func TestLivenessElectionsElectALeader(t *testing.T) {
	runCLI(t, "check", "bully", "--nodes", "3", "--timers", "quiet", "--liveness").want(t, 0,
		"liveness: agreement judged over 98 strongly connected components (0 with a cycle)",
		"liveness: ✓ agreement: on every fair infinite schedule every promise is eventually kept")
	runCLI(t, "check", "ring", "--nodes", "3", "--liveness").want(t, 0, "liveness: ✓ agreement")
	runCLI(t, "check", "ring", "--nodes", "3", "--crashes", "1", "--liveness").want(t, 3,
		"VIOLATION of termination after 1 steps", "no live process considers itself leader", "✗ agreement: 2 live node(s) know no leader")
}
