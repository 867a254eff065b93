package threadlocal

import (
	"context"
	"testing"

	"go.uber.org/goleak"

	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaults(t *testing.T) {
	lessontest.Expect(t, Command(), nil,
		"worker 4: handled 3 requests, its own total 6",
		"[w2-r1] parse  [w2-r1] reply 1  [w2-r2] parse",
		"3. why not per-thread")
}

func TestRequestIDFollowsTheContext(t *testing.T) {
	if got := RequestID(context.Background()); got != "-" {
		t.Errorf("no id: got %q", got)
	}
	ctx := WithRequestID(context.Background(), "r7")
	done := make(chan string)
	go func() { done <- RequestID(ctx) }() // the value goes wherever the ctx goes
	if got := <-done; got != "r7" {
		t.Errorf("in another goroutine: got %q, want r7", got)
	}
}

func TestSlotsAreExact(t *testing.T) {
	for i, r := range Run(context.Background(), 50, 10) {
		if r.Handled != 10 || r.Total != 55 || len(r.Log) != 20 || len(r.Threads) == 0 {
			t.Fatalf("worker %d: %+v", i+1, r)
		}
	}
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--workers", "0"},
		[]string{"--workers", "5000"},
		[]string{"--requests", "-1"},
	)
}
