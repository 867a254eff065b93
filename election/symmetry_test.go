package election

import (
	"strings"
	"testing"
)

// check --symmetry on the anonymous ring with every process a candidate:
// one state per rotation orbit, the two leaders found at the same depth as
// without it, and the path it prints is concrete: it replays with --path
// to the same violation.
func TestCheckSymmetryReplays(t *testing.T) {
	args := []string{"check", "anonymous", "--nodes", "6", "--initiators", "all", "--format", "none"}
	plain := runCLI(t, args...)
	plain.want(t, 3, "VIOLATION of uniqueness after 9 steps", "states: 5305 distinct")
	r := runCLI(t, append(args, "--symmetry")...)
	r.want(t, 3, "symmetry: rotations of the ring (6 nodes)", "VIOLATION of uniqueness after 9 steps", "states: 921 distinct")
	var path string
	for l := range strings.Lines(r.out + r.errb) {
		if p, ok := strings.CutPrefix(l, "path: "); ok {
			path = strings.TrimSpace(p)
		}
	}
	if path == "" {
		t.Fatalf("no path printed:\n%s%s", r.out, r.errb)
	}
	runCLI(t, "check", "anonymous", "--nodes", "6", "--initiators", "all", "--format", "none", "--path", path).
		want(t, 3, "uniqueness")
	// more workers: the search runs on one, and says so; the figures are the same
	runCLI(t, append(args, "--symmetry", "--workers", "2")...).
		want(t, 3, "--workers 2: --symmetry searches on one worker", "states: 921 distinct", "after 9 steps")
	runCLI(t, "check", "anonymous", "--nodes", "6", "--initiators", "all", "--symmetry", "--format", "json").
		want(t, 3, `"symmetry":"rotations of the ring"`, `"distinct":921`)
	// --path ignores --symmetry, and says so
	runCLI(t, "check", "anonymous", "--nodes", "6", "--initiators", "all", "--format", "none", "--symmetry", "--path", path).
		want(t, 3, "--symmetry: ignored with --path")
}

// --symmetry is refused (exit 2, one line naming the flag) where it does
// not apply: with --liveness (symmetry can hide a liveness violation),
// --goal, --from-path and --serve, and for a configuration that declares
// no symmetry (one candidate: the ring has a distinguished place).
func TestCheckSymmetryRefused(t *testing.T) {
	base := []string{"check", "anonymous", "--nodes", "3", "--initiators", "all", "--symmetry"}
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--liveness"}, "--symmetry with --liveness: refused, symmetry can hide a liveness violation"},
		{[]string{"--goal", "messages-on-a-link"}, "--symmetry with --goal: refused"},
		{[]string{"--from-path", ""}, "--symmetry with --from-path: refused"},
		{[]string{"--serve", "--addr", "127.0.0.1:0"}, "--symmetry with --serve: refused"},
		{[]string{"--initiators", "1"}, "--symmetry: election anonymous declares no symmetry in this configuration"},
	} {
		r := runCLI(t, append(append([]string(nil), base...), tc.extra...)...)
		r.want(t, 2, tc.want)
		if r.out != "" || strings.Count(strings.TrimSpace(r.err.Error()), "\n") > 0 {
			t.Errorf("%v: want one line and nothing on stdout, got %q and stdout %q", tc.extra, r.err, r.out)
		}
	}
}
