package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigLog writes a log of more than 1 MiB, made by a run in the test.
func bigLog(t *testing.T) string {
	t.Helper()
	code, lines, _ := logOf(t, []string{"mutex", "ricart-agrawala", "--nodes", "3", "--requests", "300", "--seed", "1"})
	f := writeLog(t, "big.ndjson", lines)
	if st, err := os.Stat(f); code != 0 || err != nil || st.Size() < 1<<20 || len(lines) < 5000 {
		t.Fatalf("the run exited %d and wrote %d lines (%v): want a log over 1 MiB", code, len(lines), err)
	}
	return f
}

// check and render refuse a log past --max-size (exit 2, one line naming
// the flag) instead of holding it in memory, and read it within the bound.
func TestCheckAndRenderBoundTheLogSize(t *testing.T) {
	f := bigLog(t)
	for _, args := range [][]string{
		{"check", "--from", f, "--max-size", "1"},
		{"check", "--from", f, "--from", "-", "--max-size", "1"},
		{"render", "--from", f, "--max-size", "1"},
	} {
		code, out, errs := runCLI(t, t.Context(), args...)
		if code != 2 || out != "" || !strings.Contains(errs, "larger than --max-size 1 MiB") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 and the bound named", args, code, len(out), errs)
		}
	}
	for _, args := range [][]string{{"check", "--from", f, "--max-size", "0"}, {"render", "--from", f, "--max-size", "-1"}} {
		if code, _, errs := runCLI(t, t.Context(), args...); code != 2 || !strings.Contains(errs, "--max-size must be between 1 and") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	for _, args := range [][]string{{"check", "--from", f, "--max-size", "2"}, {"render", "--from", f, "--format", "text", "--max-size", "2"}} {
		if code, out, errs := runCLI(t, t.Context(), args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}

// Ctrl-C while a log is read stops check and render at once (exit 130),
// saying how far they read and writing nothing.
func TestCheckAndRenderStopReadingWhenInterrupted(t *testing.T) {
	f := bigLog(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out := filepath.Join(t.TempDir(), "out.svg")
	for _, args := range [][]string{
		{"check", "--from", f},
		{"render", "--from", f, "--format", "svg"},
		{"render", "--from", f, "--format", "svg", "--out", out},
	} {
		code, stdout, errs := runCLI(t, ctx, args...)
		if code != 130 || stdout != "" || !strings.Contains(errs, "interrupted after reading") {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 130 and how far it read", args, code, len(stdout), errs)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an interrupted render created --out: %v", err)
	}
}

// render --out naming its --from log (by the same path or another name
// of the file) is refused: it would overwrite its input.
func TestRenderRefusesToOverwriteItsInput(t *testing.T) {
	_, lines, _ := logOf(t, []string{"election", "ring", "--seed", "1"})
	f := writeLog(t, "run.ndjson", lines)
	link := filepath.Join(filepath.Dir(f), "link.ndjson")
	if err := os.Symlink(f, link); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(f)
	for _, out := range []string{f, filepath.Join(filepath.Dir(f), ".", "run.ndjson"), link} {
		code, stdout, errs := runCLI(t, t.Context(), "render", "--from", f, "--format", "svg", "--out", out)
		if code != 2 || stdout != "" || !strings.Contains(errs, "is the --from log itself") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("--out %s: exit %d, stderr %q; want exit 2", out, code, errs)
		}
	}
	if after, _ := os.ReadFile(f); string(after) != string(before) {
		t.Fatal("the log was overwritten")
	}
}
