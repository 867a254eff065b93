package twolocks

import (
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/exercises/internal/lessontest"
	"ringlab/internal/cliutil"
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
		res, deadlock := Run(Config{Loops: 500, Nested: true, Ordered: true})
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
