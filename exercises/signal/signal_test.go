package signal

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaults(t *testing.T) {
	lessontest.Expect(t, Command(), nil, "\nspin  wall", "\ncond  wall", "\nchan  wall")
}

// The sleeping waiters wake exactly when signalled (fake clock: exact).
// spin is left out: a spinning goroutine never blocks, so the fake clock
// could never advance.
func TestSleepingWaitersWakeOnSignal(t *testing.T) {
	for _, impl := range []string{ImplCond, ImplChan} {
		synctest.Test(t, func(t *testing.T) {
			if r := Run(t.Context(), impl, 200*time.Millisecond); r.Wall != 200*time.Millisecond {
				t.Errorf("%s: woke after %v, want 200ms", impl, r.Wall)
			}
		})
	}
}

func TestSpinWakes(t *testing.T) {
	if r := Run(t.Context(), ImplSpin, time.Millisecond); r.Wall < time.Millisecond {
		t.Errorf("spin woke after %v, before the signal", r.Wall)
	}
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--wait", "0s"},
		[]string{"--wait", "-1ms"},
		[]string{"--wait", "1m"},
		[]string{"--impl", "poll"},
	)
}

// Ctrl-C during a wait (fake clock: at 3s of a 10s wait) ends the lesson:
// the waiting variant is reported as interrupted with the time it did wait,
// the variants after it are not run, and the exit code is 130.
func TestInterruptedWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		stop := time.AfterFunc(3*time.Second, cancel)
		defer stop.Stop()
		out, err := lessontest.RunContext(t, ctx, Command(), "--wait", "10s", "--impl", ImplCond)
		if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "\ncond  interrupted after 3s of 10s  cpu") {
			t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
		}
	})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out, err := lessontest.RunContext(t, ctx, Command(), "--wait", "10s")
	if cliutil.Code(err) != cliutil.ExitInterrupted || strings.Contains(out, "cond") || !strings.Contains(out, "spin  interrupted after 0s of 10s") {
		t.Fatalf("cancelled before the first variant: exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
}
