package signal

import (
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

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
