package join

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
		long, err1 := SleepUntilCancelled(t.Context(), sleepers[0], time.Second, 100*time.Millisecond)
		sliced, err2 := SleepUntilCancelled(t.Context(), sleepers[1], time.Second, 100*time.Millisecond)
		if long != 900*time.Millisecond || sliced > 30*time.Millisecond || err1 != nil || err2 != nil {
			t.Errorf("late by: long %v (want 900ms), sliced %v (want <= 30ms); errors %v, %v", long, sliced, err1, err2)
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

// Ctrl-C (fake clock: at 2s) stops the lesson in whichever part it is: the
// worker is cancelled and joined, or the sleeper is left (the long
// time.Sleep, which nothing can wake) or woken (the others); exit 130.
func TestInterrupted(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--work", "10s", "--timeout", "9s"}, "   interrupted after 2s: cancelled the worker and joined it: it stopped after 2s of its 10s\n"},
		{[]string{"--work", "1s", "--timeout", "2s", "--sleep", "10s", "--cancel-after", "9s"}, "one long time.Sleep:                           interrupted: after 1s, still asleep"},
	} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			stop := time.AfterFunc(2*time.Second, cancel)
			defer stop.Stop()
			out, err := lessontest.RunContext(t, ctx, Command(), c.args...)
			if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, c.want) || strings.Contains(out, "3. daemon") {
				t.Errorf("%v: exit %d (%v), want 130 and %q:\n%s", c.args, cliutil.Code(err), err, c.want, out)
			}
			<-time.After(10 * time.Second) // the fake clock runs out a time.Sleep left behind, which the bubble must see end

		})
	}
	// The sliced and select sleepers are woken by the interrupt.
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		stop := time.AfterFunc(time.Second, cancel)
		defer stop.Stop()
		_, err := SleepUntilCancelled(ctx, Sleepers(20 * time.Millisecond)[1], 10*time.Second, 9*time.Second)
		if err == nil || !strings.Contains(err.Error(), "by the interrupt") {
			t.Errorf("sliced sleeper: %v", err)
		}
	})
}
