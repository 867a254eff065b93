package pool

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestFuturesSum(t *testing.T) {
	ctx := context.Background()
	p := New(3, 2)
	var fs []*Future[int64]
	for i := range 50 {
		f, err := Submit(ctx, p, func() int64 { return SumRange(i*100, (i+1)*100) })
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	p.Close()
	var total int64
	for i, f := range fs {
		v, err := f.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := SumRange(i*100, (i+1)*100); v != want {
			t.Errorf("future %d = %d, want %d", i, v, want)
		}
		total += v
	}
	if want := gauss(5000); total != want {
		t.Errorf("total = %d, want %d", total, want)
	}
}

// A full queue makes the submitter wait until a worker takes a task.
func TestBoundedQueueMakesSubmitterWait(t *testing.T) {
	ctx := context.Background()
	p := New(1, 1)
	release := make(chan struct{})
	started := make(chan struct{})
	_ = p.Execute(ctx, func() { close(started); <-release }) // occupies the worker
	<-started
	_ = p.Execute(ctx, func() {}) // fills the queue
	short, cancel := context.WithCancel(ctx)
	cancel()
	if err := p.Execute(short, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute on a full queue with a cancelled context = %v, want context.Canceled", err)
	}
	if p.Waits() != 1 {
		t.Errorf("Waits() = %d, want 1", p.Waits())
	}
	close(release)
	p.Close()
}

func TestInvokeAllKeepsOrder(t *testing.T) {
	tasks := make([]Task[int], 20)
	for i := range tasks {
		tasks[i] = func(context.Context) (int, error) { return i * i, nil }
	}
	got, err := InvokeAll(context.Background(), 3, tasks)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != i*i {
			t.Fatalf("result %d = %d, want %d", i, v, i*i)
		}
	}
}

func TestInvokeAllFirstErrorCancelsRest(t *testing.T) {
	boom := errors.New("boom")
	var cancelled atomic.Int32
	tasks := []Task[int]{
		func(context.Context) (int, error) { return 0, boom },
		func(ctx context.Context) (int, error) { <-ctx.Done(); cancelled.Add(1); return 0, ctx.Err() },
	}
	if _, err := InvokeAll(context.Background(), 2, tasks); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if cancelled.Load() != 1 {
		t.Errorf("the blocked task was not cancelled")
	}
}

// Under synctest the replicas' latencies are exact: the fastest wins, the
// others are cancelled the moment it answers.
func TestInvokeAnyFirstWinsRestCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		start := time.Now()
		res, err := InvokeAny(t.Context(), Replicas([]time.Duration{90 * ms, 30 * ms, 60 * ms, 120 * ms}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Winner != 1 || res.Value != "replica 1" || res.Cancelled != 3 {
			t.Errorf("got %+v, want replica 1 winning with 3 cancelled", res)
		}
		if d := time.Since(start); d != 30*ms {
			t.Errorf("InvokeAny returned after %v, want 30ms (the others must not be awaited to completion)", d)
		}
	})
}

func TestInvokeAnyAllFail(t *testing.T) {
	boom := errors.New("boom")
	fail := func(context.Context) (int, error) { return 0, boom }
	if _, err := InvokeAny(context.Background(), []Task[int]{fail, fail}); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

func TestForkJoin(t *testing.T) {
	for _, tc := range []struct{ n, threshold, leaves int }{
		{1, 1, 1}, {10, 100, 1}, {1000, 100, 16}, {1000, 1, 1000}, {999_999, 10_000, 128},
	} {
		total, leaves := ForkJoin(0, tc.n, tc.threshold, SumRange)
		if total != gauss(tc.n) || leaves != tc.leaves || LeafCount(tc.n, tc.threshold) != tc.leaves {
			t.Errorf("ForkJoin(0, %d, %d) = %d, %d leaves; want %d, %d leaves", tc.n, tc.threshold, total, leaves, gauss(tc.n), tc.leaves)
		}
	}
}

// Fixed rate starts on the ticker's beat; fixed delay drifts by the run time.
func TestFixedRateVsFixedDelay(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name      string
		work      time.Duration
		rate, dly []time.Duration
	}{
		{"work<period", 30 * ms, []time.Duration{0, 100 * ms, 200 * ms, 300 * ms}, []time.Duration{0, 130 * ms, 260 * ms, 390 * ms}},
		// An overrun delays the next start and the missed ticks are dropped.
		{"work>period", 150 * ms, []time.Duration{0, 150 * ms, 300 * ms, 450 * ms}, []time.Duration{0, 250 * ms, 500 * ms, 750 * ms}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				task := func(ctx context.Context) { _ = sleep(ctx, tc.work) }
				rate, err := FixedRate(t.Context(), 100*ms, 4, task)
				if err != nil || !slices.Equal(rate, tc.rate) {
					t.Errorf("FixedRate starts = %v, %v; want %v", rate, err, tc.rate)
				}
				dly, err := FixedDelay(t.Context(), 100*ms, 4, task)
				if err != nil || !slices.Equal(dly, tc.dly) {
					t.Errorf("FixedDelay starts = %v, %v; want %v", dly, err, tc.dly)
				}
			})
		})
	}
}

func TestCommandSmall(t *testing.T) {
	out, err := lessontest.Run(t, Command(), "--workers", "2", "--queue", "1", "--tasks", "10", "--n", "100000", "--threshold", "1000",
		"--period", "2ms", "--work", "1ms", "--runs", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"futures:", "invoke-all:", `"replica 1" won`, "128 leaves", "fixed rate", "fixed delay"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "WRONG") {
		t.Errorf("a sum is wrong:\n%s", out)
	}
}

func TestCommonAndBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--workers", "0"}, []string{"--workers", "-3"}, []string{"--queue", "0"}, []string{"--tasks", "0"}, []string{"--n", "0"},
		[]string{"--threshold", "0"}, []string{"--n", "1000000000", "--threshold", "1"}, []string{"--runs", "0"},
		[]string{"--period", "0s"}, []string{"--work", "-1s"},
	)
}
