package twolocks

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaultsNoDeadlock(t *testing.T) {
	lessontest.Expect(t, Command(), nil, "final c1=2000 c2=2000")
}

// T1 holds lock1 and wants lock2, T2 holds lock2 and wants lock1 (the course chapter on concurrency,
// "deadlock from taking two locks in opposite orders"): every run, detected,
// exit 4, and every goroutine unwound (goleak checks in TestMain).
func TestNestedOppositeOrderDeadlocks(t *testing.T) {
	for range 20 {
		out, err := lessontest.Run(t, Command(), "--nested")
		if code := cliutil.Code(err); code != cliutil.ExitNoTermination {
			t.Fatalf("exit %d, want %d; output:\n%s", code, cliutil.ExitNoTermination, out)
		}
		want := "T1 holds lock1 and waits for lock2 (held by T2); T2 holds lock2 and waits for lock1 (held by T1)"
		if !strings.Contains(out, want) {
			t.Fatalf("watchdog report missing %q:\n%s", want, out)
		}
	}
}

func TestOrderedLocksFix(t *testing.T) {
	for range 20 {
		res, deadlock := Run(t.Context(), Config{Loops: 500, Nested: true, Ordered: true})
		if deadlock != "" || res.C1 != 1000 || res.C2 != 1000 {
			t.Fatalf("ordered: %+v, deadlock %q; want 1000/1000 and none", res, deadlock)
		}
	}
	lessontest.Expect(t, Command(), []string{"--nested", "--ordered-locks"}, "final c1=2000 c2=2000")
}

func TestWatchdogIgnoresPlainWaiting(t *testing.T) {
	m := NewMonitor()
	a, b := m.NewLock("a"), m.NewLock("b")
	if err := a.Lock("g1", nil); err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	go func() { got <- a.Lock("g2", nil) }() // waits for g1, no cycle
	b.Lock("g1", nil)
	if r := m.findCycle(); r != "" { // g2 may or may not be recorded yet: no cycle either way
		t.Errorf("findCycle = %q, want no cycle", r)
	}
	b.Unlock()
	a.Unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	a.Unlock()
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--loops", "0"},
		[]string{"--loops", "-5"},
		[]string{"--loops", "100000000"},
		[]string{"--ordered-locks"},
	)
}

// Ctrl-C stops both goroutines before their next loop: the lesson prints
// what each saw and the partial counts, and exits 130 (goleak checks that
// the goroutines and the watchdog were joined).
func TestInterrupted(t *testing.T) {
	for _, args := range [][]string{{"--loops", "10000000"}, {"--loops", "10000000", "--nested", "--ordered-locks"}} {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		out, err := lessontest.RunContext(t, ctx, Command(), args...)
		if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "\ninterrupted: T1 ran ") {
			t.Fatalf("%v: exit %d (%v):\n%s", args, cliutil.Code(err), err, out)
		}
	}
	// Part-way: the counts add up to the loops the goroutines finished.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	res, deadlock := Run(ctx, Config{Loops: 1000})
	if deadlock != "" || res.Interrupted || res.C1 != 2000 {
		t.Fatalf("uncancelled: %+v %q", res, deadlock)
	}
	cancel()
	if res, _ = Run(ctx, Config{Loops: 1000, Nested: true, Ordered: true}); !res.Interrupted || res.C1 != res.Loops[0]+res.Loops[1] || res.C1 != res.C2 {
		t.Fatalf("cancelled: %+v", res)
	}
}
