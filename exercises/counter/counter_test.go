package counter

import (
	"context"
	"io"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
	"ringlab/internal/racebuild"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaults(t *testing.T) {
	out := lessontest.Expect(t, Command(), nil, "expected 200, got 200: no update lost")
	if n := strings.Count(out, "\n"); n != 202 {
		t.Errorf("%d lines, want 200 value lines and 2 summary lines", n)
	}
}

// The exercise's claim: with any synchronized counter the final value is
// exactly goroutines × increments; printing inside the critical section
// prints the values in increasing order.
func TestSafeCountersAreExact(t *testing.T) {
	for _, impl := range []string{ImplMutex, ImplAtomic, ImplChannel} {
		for _, inside := range []bool{false, true} {
			if inside && !SupportsInside(impl) {
				continue
			}
			cfg := Config{Impl: impl, Goroutines: 50, Increments: 100, PrintInside: inside}
			res := Run(context.Background(), cfg, io.Discard)
			if res.Got != 5000 || res.Expected != 5000 || res.Lines != 5000 {
				t.Errorf("%s inside=%v: %+v, want 5000 of 5000", impl, inside, res)
			}
			if inside && res.OutOfOrder != 0 {
				t.Errorf("%s --print-inside: %d lines out of order, want 0", impl, res.OutOfOrder)
			}
		}
	}
}

func TestUnsafeLosesUpdates(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("the unsafe counter is a data race; under -race it runs only in the subprocess of exercises/race_test.go")
	}
	res := Run(context.Background(), Config{Impl: ImplUnsafe, Goroutines: 100, Increments: 100, Quiet: true}, io.Discard)
	if res.Got >= res.Expected {
		t.Errorf("unsafe counter: got %d of %d, want lost updates", res.Got, res.Expected)
	}
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--impl", "magic"},
		[]string{"--goroutines", "0"},
		[]string{"--goroutines", "-3"},
		[]string{"--goroutines", "2000000"},
		[]string{"--increments", "0"},
		[]string{"--goroutines", "1000000", "--increments", "1000"},
		[]string{"--impl", "atomic", "--print-inside"},
		[]string{"--impl", "unsafe", "--print-inside"},
		[]string{"--goroutines", "many"},
	)
}

// cancelWriter cancels its context at its n-th write.
type cancelWriter struct {
	n      int
	cancel context.CancelFunc
}

func (w *cancelWriter) Write(b []byte) (int, error) {
	if w.n--; w.n == 0 {
		w.cancel()
	}
	return len(b), nil
}

// Ctrl-C (here: the tenth printed line) stops every goroutine before its
// next increment, on every implementation (the channel counter's owner
// outlives the goroutines, so none blocks on it): the counts cover the
// increments made, a safe counter lost none, and all are joined (goleak).
func TestInterrupted(t *testing.T) {
	for _, impl := range []string{ImplMutex, ImplAtomic, ImplChannel} {
		for _, inside := range []bool{false, true} {
			if inside && !SupportsInside(impl) {
				continue
			}
			ctx, cancel := context.WithCancel(t.Context())
			cfg := Config{Impl: impl, Goroutines: 50, Increments: 10_000, PrintInside: inside}
			res := Run(ctx, cfg, &cancelWriter{n: 10, cancel: cancel})
			cancel()
			if !res.Interrupted || res.Expected < 10 || res.Expected >= res.Planned || res.Got != res.Expected {
				t.Errorf("%s (inside %v): %+v", impl, inside, res)
			}
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out, err := lessontest.RunContext(t, ctx, Command(), "--impl", "channel")
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "interrupted after 0 of 200 increments") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
}
