package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDrawsTheCounterexample: a check asked for a picture draws the
// shortest counterexample in that format on stdout, and, finding none,
// says on stderr that there is nothing to draw.
func TestCheckDrawsTheCounterexample(t *testing.T) {
	starts := map[string]string{"svg": "<?xml", "mermaid": "%% ringlab", "shiviz": "(?<", "chrome-trace": "{"}
	for format, start := range starts {
		for _, args := range [][]string{
			{"mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10"},
			{"election", "check", "anonymous", "--initiators", "all", "--nodes", "2"},
		} {
			code, out, errs := runCLI(t, t.Context(), append(args, "--format", format)...)
			if code != 3 || !strings.HasPrefix(strings.TrimSpace(out), start) {
				t.Errorf("%v --format %s: exit %d, stdout starts %q, want exit 3 and the picture (%q...); stderr %q",
					args, format, code, clip(out, 80), start, clip(errs, 300))
			}
			if !strings.Contains(errs, "result: VIOLATION") {
				t.Errorf("%v --format %s: the figures are not on stderr: %q", args, format, clip(errs, 300))
			}
		}
		code, out, errs := runCLI(t, t.Context(), "mutex", "check", "central", "--nodes", "2", "--format", format)
		if code != 0 || out != "" || !strings.Contains(errs, "no counterexample, so no "+format+" picture") {
			t.Errorf("mutex check central --nodes 2 --format %s: exit %d, stdout %q, stderr %q; want exit 0, nothing on stdout, and why on stderr",
				format, code, clip(out, 80), errs)
		}
	}
}

// TestCheckEmptyPath: --path ” is refused (it names no path a check
// printed), in one line naming the flag.
func TestCheckEmptyPath(t *testing.T) {
	for _, args := range [][]string{
		{"mutex", "check", "central", "--nodes", "2", "--path", ""},
		{"election", "check", "ring", "--path", " "},
	} {
		code, out, errs := runCLI(t, t.Context(), args...)
		if code != 2 || out != "" || !strings.Contains(errs, "--path is empty") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line naming --path", args, code, clip(out, 80), errs)
		}
	}
}

// TestOutAndEventsSameFile: --out and --events naming one file are refused
// before anything is written, naming both flags.
func TestOutAndEventsSameFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "run.svg")
	link := filepath.Join(dir, "link.svg")
	if err := os.WriteFile(f, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f, link); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{f, f}, {f, filepath.Join(dir, ".", "run.svg")}, {f, link}} {
		for _, cmd := range [][]string{{"mutex", "central", "--seed", "1"}, {"election", "ring"}} {
			args := append(cmd, "--format", "svg", "--out", pair[0], "--events", pair[1])
			code, out, errs := runCLI(t, t.Context(), args...)
			if code != 2 || out != "" || !strings.Contains(errs, "--out") || !strings.Contains(errs, "--events") {
				t.Errorf("%q: exit %d, stderr %q; want exit 2 naming --out and --events", args, code, errs)
			}
			if b, _ := os.ReadFile(f); string(b) != "keep" {
				t.Fatalf("%q: the file was written before the refusal: %q", args, clip(string(b), 80))
			}
		}
	}
}

// TestLiveReplayHasNoSeed: a run on goroutines cannot be repeated by a
// seed, so its replay line has none and says why; a simulator run's has one.
func TestLiveReplayHasNoSeed(t *testing.T) {
	for _, args := range [][]string{
		{"mutex", "central", "--runtime", "live", "--nodes", "2", "--requests", "1", "--format", "none"},
		{"election", "chang-roberts", "--runtime", "live", "--format", "none"},
	} {
		code, _, errs := runCLI(t, t.Context(), args...)
		line := lineStarting(errs, "replay: ")
		if code != 0 || line == "" || strings.Contains(line, "--seed") || !strings.Contains(line, "Go scheduler") {
			t.Errorf("%q: exit %d, replay line %q; want no --seed and a note on the Go scheduler", args, code, line)
		}
		if strings.Contains(errs, "seed ") && strings.Contains(errs, "repeat with") {
			t.Errorf("%q: offers a seed to repeat a live run: %q", args, errs)
		}
	}
	_, _, errs := runCLI(t, t.Context(), "mutex", "central", "--seed", "4", "--format", "none")
	if line := lineStarting(errs, "replay: "); !strings.HasSuffix(line, "--seed 4") {
		t.Errorf("a simulator run's replay line %q lacks its seed", line)
	}
}

func lineStarting(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
