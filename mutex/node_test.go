package mutex

import (
	"testing"

	"ringlab/internal/cliutil"
	"ringlab/internal/run"
)

// A node process's run exits as the mutex command's own run does for the
// same outcome: a failed liveness verdict (a deadlock the run ended in) is
// no progress, exit 4; a safety violation stays exit 3.
func TestNodeAreaExitsAsTheCommand(t *testing.T) {
	exit := NodeArea().Exit
	if exit == nil {
		t.Fatal("the mutex node area maps no exit code")
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&run.Violation{Property: "no deadlock", Detail: "P5 still waiting"}, cliutil.ExitNoTermination},
		{&run.Violation{Property: "no starvation", Detail: "1 request(s) of P2 never granted"}, cliutil.ExitNoTermination},
		{&run.Violation{Property: "mutual exclusion", Detail: "P1 and P2 are in the critical section at once"}, cliutil.ExitViolation},
		{cliutil.NoTerminationf("no termination: still running after --timeout 1s"), cliutil.ExitNoTermination},
		{nil, cliutil.ExitOK},
	} {
		if got := cliutil.Code(exit(tc.err)); got != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.err, got, tc.want)
		}
	}
}
