package join

import (
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Under synctest the clock is fake, so the timings are exact.
func TestDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lessontest.Expect(t, Command(), nil,
			"got tired of waiting after 100ms; the worker is still running",
			"it stopped after 100ms of its 300ms",
			"one long time.Sleep:                           noticed the cancel 200ms late",
			"select on a timer and ctx.Done():              noticed the cancel 0s late",
			"daemon goroutines: Go has none")
	})
}

func TestJoinWithinTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := JoinWithTimeout(t.Context(), 300*time.Millisecond, 500*time.Millisecond)
		if !r.Finished || r.WorkerRan != 300*time.Millisecond {
			t.Errorf("got %+v, want finished after 300ms", r)
		}
	})
}

// The sliced sleep notices a cancel within one slice; the long one does not.
func TestSlicedSleepNoticesWithinASlice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sleepers := Sleepers(30 * time.Millisecond)
		long := SleepUntilCancelled(t.Context(), sleepers[0].Sleep, time.Second, 100*time.Millisecond)
		sliced := SleepUntilCancelled(t.Context(), sleepers[1].Sleep, time.Second, 100*time.Millisecond)
		if long != 900*time.Millisecond || sliced > 30*time.Millisecond {
			t.Errorf("late by: long %v (want 900ms), sliced %v (want <= 30ms)", long, sliced)
		}
	})
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--work", "0s"},
		[]string{"--timeout", "-1s"},
		[]string{"--sleep", "1h"},
		[]string{"--cancel-after", "300ms"},
		[]string{"--slice", "1s"},
		[]string{"--work", "soon"},
	)
}
