package exercises_test

// The race-detector curriculum (README, "Race-detector curriculum"): the
// quarantined racy demos (counter/unsafe.go, concmap/racy.go, ring/racy.go)
// run only here, in a subprocess built with -race, never inside this test
// process. The detector must report each of them (exit 66), and must stay
// silent on every synchronized variant (exit 0).

import (
	"strings"
	"testing"

	"ringlab/internal/racetest"
)

func TestRaceDetectorCurriculum(t *testing.T) {
	bin := racetest.Build(t, "..")
	for _, tc := range []struct {
		args  string
		races bool
	}{
		{"exercises counter --impl unsafe", true},
		{"exercises counter --impl mutex", false},
		{"exercises counter --impl atomic", false},
		{"exercises counter --impl channel", false},
		{"exercises concurrent-map --impl racy", true},
		{"exercises concurrent-map --impl mutex", false},
		{"exercises concurrent-map --impl syncmap", false},
		{"ring --impl racy --delay 0 --nodes 5 --length 20", true},
		{"ring --impl chan --delay 0", false},
	} {
		t.Run(tc.args, func(t *testing.T) {
			t.Parallel()
			r := racetest.Run(t, bin, strings.Fields(tc.args)...)
			want := 0
			if tc.races {
				want = 66 // the race detector's exit code
			}
			if r.Raced() != tc.races || r.ExitCode != want {
				t.Errorf("raced=%v exit=%d, want raced=%v exit=%d\nstderr:\n%s", r.Raced(), r.ExitCode, tc.races, want, tail(r.Stderr, 3000))
			}
		})
	}
}

// tail keeps the end of a long report readable in a failure message.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
