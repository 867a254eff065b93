package main

import (
	"context"
	"fmt"
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

// headerless writes f's log without its header line (as an older log):
// check must hold it in memory to learn its run from its summary.
func headerless(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "\n")
	p := filepath.Join(t.TempDir(), "headerless.ndjson")
	if err := os.WriteFile(p, []byte(rest), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// check and render refuse a log they would hold in memory past --max-size
// (exit 2, one line naming the flag), and read it within the bound. One
// log that opens with its header, check judges as it reads it, in memory
// that does not grow with it: --max-size does not apply.
func TestCheckAndRenderBoundTheLogSize(t *testing.T) {
	f := bigLog(t)
	for _, args := range [][]string{
		{"check", "--from", headerless(t, f), "--max-size", "1"},
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
	for _, args := range [][]string{
		{"check", "--from", f, "--max-size", "1"}, // streamed
		{"check", "--from", headerless(t, f), "--max-size", "2"},
		{"render", "--from", f, "--format", "text", "--max-size", "2"},
	} {
		if code, out, errs := runCLI(t, t.Context(), args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}

// Ctrl-C while a log is read stops check and render at once (exit 130),
// saying how far they read: render writes nothing, check the verdicts of
// what it judged (a streamed log) or nothing (a log it holds).
func TestCheckAndRenderStopReadingWhenInterrupted(t *testing.T) {
	f := bigLog(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out := filepath.Join(t.TempDir(), "out.svg")
	for _, args := range [][]string{
		{"check", "--from", headerless(t, f)},
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
	code, stdout, errs := runCLI(t, ctx, "check", "--from", f)
	var n int
	if _, err := fmt.Sscanf(errs, "checked %d logged events", &n); code != 130 || err != nil || n >= 5000 ||
		!strings.Contains(stdout, "✗ termination: interrupted") {
		t.Errorf("check of a streamed log: exit %d, stdout %q, stderr %q; want exit 130, the verdicts so far and how far it read", code, stdout, errs)
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
