package hello

import (
	"context"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDefaults(t *testing.T) {
	lessontest.Expect(t, Command(), nil, Line(1, 5), Line(2, 5), Line(3, 5), Line(4, 5), Line(5, 5), "5 goroutines joined")
}

// Every goroutine says hello exactly once, whatever the order.
func TestUnorderedSaysEveryHelloOnce(t *testing.T) {
	var lines []string
	order := Unordered(t.Context(), 1000, func(l string) { lines = append(lines, l) }) // emit runs under Unordered's lock
	slices.Sort(order)
	for i, v := range order {
		if v != i+1 {
			t.Fatalf("order[%d] = %d after sorting: a goroutine said hello twice or never", i, v)
		}
	}
	if len(lines) != 1000 {
		t.Errorf("%d lines, want 1000", len(lines))
	}
}

func TestOrderedIsDeterministic(t *testing.T) {
	out := lessontest.Expect(t, Command(), []string{"--goroutines", "200", "--ordered"})
	var want strings.Builder
	for i := 1; i <= 200; i++ {
		want.WriteString(Line(i, 200))
	}
	want.WriteString("200 goroutines joined; 0 lines came right after a larger number (out of order)\n")
	if out != want.String() {
		t.Errorf("--ordered output differs from 1..200 in order:\n%s", out)
	}
}

func TestOutOfOrder(t *testing.T) {
	for _, tc := range []struct {
		order []int
		want  int
	}{{nil, 0}, {[]int{1, 2, 3}, 0}, {[]int{5, 1, 2, 3, 4}, 1}, {[]int{2, 1, 4, 3}, 2}} {
		if got := OutOfOrder(tc.order); got != tc.want {
			t.Errorf("OutOfOrder(%v) = %d, want %d", tc.order, got, tc.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--goroutines", "0"},
		[]string{"--goroutines", "-1"},
		[]string{"--goroutines", "1000001"},
	)
}

// Ctrl-C stops the greetings: no goroutine is started after it, none says
// hello after it, every one started is joined (goleak), and the lesson
// exits 130 with the count so far. Here the tenth line cancels.
func TestInterrupted(t *testing.T) {
	for _, run := range []func(context.Context, int, func(string)) []int{Unordered, Ordered} {
		ctx, cancel := context.WithCancel(t.Context())
		lines := 0
		order := run(ctx, 1000, func(string) {
			if lines++; lines == 10 {
				cancel()
			}
		})
		cancel()
		if len(order) != 10 || lines != 10 {
			t.Errorf("%d lines, order of %d after a cancel at the tenth", lines, len(order))
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out, err := lessontest.RunContext(t, ctx, Command(), "--goroutines", "100")
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "interrupted: 0 of 100 goroutines said hello") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
}
