package cliutil

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"ringlab/engine/run"
)

// TestCode: each typed error gives its exit code through any wrapping,
// and keeps the message the user reads.
func TestCode(t *testing.T) {
	safety := &run.Violation{Property: "mutual exclusion", Detail: "node 1 and node 2 in the CS", Replay: "ringlab mutex central"}
	live := &run.Violation{Property: "no deadlock", Detail: "node 2 waits", Replay: "ringlab mutex central", Liveness: true}
	for _, c := range []struct {
		err  error
		code int
		msg  string
	}{
		{nil, ExitOK, ""},
		{errors.New("disk full"), ExitInternal, "disk full"},
		{context.Canceled, ExitInterrupted, "context canceled"},
		{Usagef("--nodes must be positive"), ExitUsage, "--nodes must be positive"},
		{FlagUsagef("from", "--from x: line 3"), ExitUsage, "--from x: line 3"},
		{safety, ExitViolation, "mutual exclusion violated: node 1 and node 2 in the CS (replay: ringlab mutex central)"},
		{fmt.Errorf("run 2: %w", safety), ExitViolation, "run 2: mutual exclusion violated: node 1 and node 2 in the CS (replay: ringlab mutex central)"},
		{live, ExitNoTermination, "no progress: no deadlock violated: node 2 waits (replay: ringlab mutex central)"},
		{fmt.Errorf("node 3: %w", live), ExitNoTermination, "node 3: no progress: no deadlock violated: node 2 waits (replay: ringlab mutex central)"},
		{NoTerminationf("no termination"), ExitNoTermination, "no termination"},
		{&run.NoTermination{Why: "step budget", Replay: "r"}, ExitNoTermination, "no termination: step budget (replay: r)"},
	} {
		if got := Code(c.err); got != c.code {
			t.Errorf("Code(%v) = %d, want %d", c.err, got, c.code)
		}
		if c.err != nil && c.err.Error() != c.msg {
			t.Errorf("message %q, want %q", c.err.Error(), c.msg)
		}
	}
	var ue *UsageError
	if err := fmt.Errorf("the log's command: %w", FlagUsagef("property", "--property: unknown")); !errors.As(err, &ue) || ue.Flag != "property" {
		t.Errorf("a wrapped flag error lost its flag: %v", err)
	}
}
