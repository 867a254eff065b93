package blockingqueue

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaults(t *testing.T) {
	lessontest.Expect(t, Command(), nil, "moved 2000 items, each exactly once")
}

// Every correct queue moves every item exactly once, in many shapes, and its
// deadlock check never fires (no false alarm).
func TestCorrectQueuesMoveEveryItemOnce(t *testing.T) {
	for _, impl := range []string{ImplCond, ImplTwoConds, ImplChan} {
		for _, shape := range [][3]int{{2, 2, 1}, {1, 5, 1}, {5, 1, 2}, {4, 4, 3}} {
			cfg := Config{Impl: impl, Producers: shape[0], Consumers: shape[1], Capacity: shape[2], Items: 300, Rounds: 1}
			for range 20 {
				res := Run(context.Background(), cfg)
				if res.Deadlock != "" || res.Sum != expectedSum(cfg) {
					t.Fatalf("%+v: sum %d want %d, deadlock %q", cfg, res.Sum, expectedSum(cfg), res.Deadlock)
				}
			}
		}
	}
}

// The wait/notify trap: one shared cond and Signal. Not guaranteed in one
// round (it depends on the schedule), so the command repeats up to 100
// rounds; in practice it deadlocks within the first few.
func TestNotifyOneDeadlocks(t *testing.T) {
	out, err := lessontest.Run(t, Command(), "--notify-one")
	if code := cliutil.Code(err); code != cliutil.ExitNoTermination {
		t.Fatalf("exit %d, want %d:\n%s", code, cliutil.ExitNoTermination, out)
	}
	if !strings.Contains(out, "deadlock: queue holds") {
		t.Errorf("no deadlock report in:\n%s", out)
	}
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--impl", "ring"},
		[]string{"--impl", "chan", "--notify-one"},
		[]string{"--producers", "0"},
		[]string{"--consumers", "-1"},
		[]string{"--capacity", "0"},
		[]string{"--items", "0"},
		[]string{"--rounds", "0"},
		[]string{"--producers", "20000"},
		[]string{"--items", "1000000", "--rounds", "1000"},
	)
}

// Ctrl-C makes every Put and Take give up, on every queue, so every
// goroutine is joined (goleak) and the lesson exits 130 with the count.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, impl := range []string{ImplCond, ImplTwoConds, ImplChan} {
		res := Run(ctx, Config{Impl: impl, Producers: 4, Consumers: 4, Capacity: 1, Items: 100_000, Rounds: 1})
		if !res.Interrupted || res.Deadlock != "" {
			t.Errorf("%s: %+v", impl, res)
		}
	}
	out, err := lessontest.RunContext(t, ctx, Command())
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "\ninterrupted in round 1: 0 of 2000 items taken") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
}
