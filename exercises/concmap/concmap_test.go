package concmap

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
	"ringlab/internal/racebuild"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaults(t *testing.T) {
	lessontest.Expect(t, Command(), nil, "\n1 believed they inserted it first")
}

// An atomic put-if-absent has exactly one winner, and the map holds its id.
func TestSafeMapsHaveOneWinner(t *testing.T) {
	for _, impl := range []string{ImplMutex, ImplSyncMap} {
		for range 50 {
			res := Run(context.Background(), impl, 200)
			if res.Believers != 1 || res.Stored < 1 || res.Stored > 200 {
				t.Fatalf("%s: %+v, want exactly 1 winner", impl, res)
			}
		}
	}
}

func TestRacyHasSeveralWinners(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("the racy map is a data race; under -race it runs only in the subprocess of exercises/race_test.go")
	}
	// The first two goroutines past the check wait there for each other,
	// so that neither has put when the other checks: the interleaving the
	// lesson's yield makes likely, made certain (a busy machine may run
	// the yielding goroutine on, and the demo then shows one winner).
	m := NewRacyMap()
	var arrived atomic.Int32
	both := make(chan struct{})
	m.Between = func() {
		if arrived.Add(1) == 2 {
			close(both)
		}
		<-both
	}
	if res := RunMap(context.Background(), m, 100); res.Believers < 2 {
		t.Errorf("racy check-then-put: %+v, want several believers", res)
	}
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--impl", "hashmap"},
		[]string{"--goroutines", "0"},
		[]string{"--goroutines", "10000000"},
	)
}

// Ctrl-C before the start gate opens: no goroutine calls PutIfAbsent, the
// ones started are joined (goleak), and the lesson exits 130 saying so.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out, err := lessontest.RunContext(t, ctx, Command(), "--goroutines", "1000")
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "\ninterrupted: 0 of 1000 goroutines were started") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
	if res := Run(ctx, ImplMutex, 1000); !res.Interrupted || res.Believers != 0 || res.Started != 0 {
		t.Fatalf("cancelled run: %+v", res)
	}
}
