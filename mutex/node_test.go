package mutex

import (
	"testing"
)

// A node process's run exits as the mutex command's own run does for the
// same outcome: a failed liveness verdict (a deadlock the run ended in) is
// no progress, exit 4; a safety violation stays exit 3. The properties of
// the System a node process builds say which are liveness properties.
func TestNodeAreaExitsAsTheCommand(t *testing.T) {
	for _, name := range Area().Names() {
		sys, err := nodeRuns().Spec(name, []string{"--nodes", "3"}, 2, false)
		if err != nil {
			t.Fatal(err)
		}
		checkLivenessExits(t, sys)
	}
}
