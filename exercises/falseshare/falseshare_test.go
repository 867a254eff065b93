package falseshare

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/exercises/internal/lessontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestLayout(t *testing.T) {
	var p Padded
	if d := unsafe.Offsetof(p.B) - unsafe.Offsetof(p.A); d < 128 {
		t.Errorf("padded counters are %d bytes apart, want >= 128", d)
	}
	var q Packed
	if d := unsafe.Offsetof(q.B) - unsafe.Offsetof(q.A); d != 8 {
		t.Errorf("packed counters are %d bytes apart, want 8", d)
	}
}

func TestRunCounts(t *testing.T) {
	for _, impl := range []string{ImplPacked, ImplPadded} {
		res, err := Run(t.Context(), impl, 10_000)
		if err != nil || res.A != 10_000 || res.B != 10_000 {
			t.Errorf("Run(%s) = %+v, %v; want both counters at 10000", impl, res, err)
		}
	}
	if _, err := Run(t.Context(), "striped", 1); err == nil {
		t.Error("Run accepted an unknown implementation")
	}
}

func TestCommandSmall(t *testing.T) {
	out, err := lessontest.Run(t, Command(), "--n", "10000", "--rounds", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"packed", "padded", "packed/padded time ratio =", "measurement"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCommonAndBadInput(t *testing.T) {
	lessontest.CheckCommon(t, Command,
		[]string{"--n", "0"}, []string{"--n", "-5"}, []string{"--n", "99999999999"}, []string{"--rounds", "0"}, []string{"--rounds", "21"},
	)
}

// Ctrl-C stops both goroutines within a chunk of increments: the lesson
// prints where it was and exits 130; goleak checks they were joined.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := Run(ctx, ImplPacked, 1_000_000_000)
	if err != nil || !res.Interrupted || res.A != 0 || res.B != 0 {
		t.Fatalf("cancelled run: %+v, %v", res, err)
	}
	out, err := lessontest.RunContext(t, ctx, Command(), "-n", "10000000000")
	if cliutil.Code(err) != cliutil.ExitInterrupted || !strings.Contains(out, "\ninterrupted in round 1 of packed, after 0 and 0 of 10000000000 increments") {
		t.Fatalf("exit %d (%v):\n%s", cliutil.Code(err), err, out)
	}
}
