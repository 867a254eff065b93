package ring

import (
	"strings"
	"testing"

	"ringlab/internal/racetest"
)

// TestRacyRingIsReported builds ringlab with -race and checks that the
// detector reports the racy ring, and not the channel or cond rings: the
// worked example of the README's "Reading a race report".
func TestRacyRingIsReported(t *testing.T) {
	bin := racetest.Build(t, "..")

	racy := racetest.Run(t, bin, "ring", "--impl", "racy", "--delay", "0", "--nodes", "5", "--length", "20", "--seed", "3")
	if !racy.Raced() || racy.ExitCode != 66 {
		t.Fatalf("racy ring: exit %d, race reported %v; stderr:\n%s", racy.ExitCode, racy.Raced(), racy.Stderr)
	}
	for _, want := range []string{"ringlab/ring.(*racyRing).node", "racy.go"} {
		if !strings.Contains(racy.Stderr, want) {
			t.Errorf("the race report does not point at %s:\n%s", want, racy.Stderr)
		}
	}
	for _, impl := range []string{"chan", "cond"} {
		r := racetest.Run(t, bin, "ring", "--impl", impl, "--delay", "0", "--nodes", "5", "--length", "20", "--seed", "3")
		if r.Raced() || r.ExitCode != 0 {
			t.Errorf("%s ring: exit %d, race reported %v; stderr:\n%s", impl, r.ExitCode, r.Raced(), r.Stderr)
		}
	}
}
