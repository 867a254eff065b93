package twophase_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"example.com/ringlab-examples/twophase"
	"ringlab/election"
	"ringlab/engine"
	"ringlab/engine/cli"
	"ringlab/mutex"
)

// A user's algorithm sits beside the shipped ones in one program, through
// the same public API (engine.Algorithm values, cli.Run): the shipped
// mutual-exclusion and election algorithms get the same run, check and
// check --from as two-phase commit, with no private door.
func TestBesideTheShippedAlgorithms(t *testing.T) {
	algs := append(append(mutex.Algorithms(), election.Algorithms()...), twophase.Algorithm())
	lab := func(args ...string) (int, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := cli.Run(context.Background(), append([]string{"mylab"}, args...), &out, &errb, algs...)
		return code, out.String() + errb.String()
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"2pc", "--seed", "1", "--format", "none"}, "✓ atomicity"},
		{[]string{"ricart-agrawala", "--nodes", "3", "--seed", "1", "--format", "none"}, "✓ mutual exclusion"},
		{[]string{"chang-roberts", "--seed", "1", "--format", "none"}, "replay: mylab chang-roberts"},
		{[]string{"check", "2pc", "--participants", "2"}, "exhausted, no violation"},
		{[]string{"check", "ricart-agrawala", "--nodes", "2"}, "exhausted, no violation"},
	} {
		code, out := lab(tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Fatalf("mylab %s: exit %d, want 0 and %q\n%s", strings.Join(tc.args, " "), code, tc.want, out)
		}
	}
	names := make([]string, len(algs))
	for i, a := range algs {
		names[i] = a.Name
	}
	code, out := lab("--help")
	for _, n := range names {
		if code != 0 || !strings.Contains(out, "   "+n+" ") {
			t.Fatalf("mylab --help: exit %d, no %s in\n%s", code, n, out)
		}
	}
	if _, ok := engine.Find(algs, "2pc"); !ok {
		t.Fatal("2pc is not in the list")
	}
}
