package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFranklinRoundsTyped: Franklin's rounds travel in the leader event's
// typed field, so a saved log re-checked without its notes still gives the
// run's figure (R = 4 for these ids), and the log holds it as "round".
func TestFranklinRoundsTyped(t *testing.T) {
	code, out, errs := runCLI(t, t.Context(), "election", "franklin", "--nodes", "16", "--layout", "random", "--seed", "3", "--format", "json")
	if code != 0 {
		t.Fatalf("franklin run: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"kind":"leader","leader":16,"round":4,`) || !strings.Contains(out, `"rounds":"4 (bound`) {
		t.Fatalf("the log has no leader event with its rounds, or another figure:\n%s", out)
	}
	var kept []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, `"kind":"note"`) {
			kept = append(kept, l)
		}
	}
	if len(kept) == len(strings.Split(out, "\n")) {
		t.Fatal("the run wrote no note to strip")
	}
	file := filepath.Join(t.TempDir(), "franklin.ndjson")
	if err := os.WriteFile(file, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, t.Context(), "check", "--from", file)
	if code != 0 || !strings.Contains(out, "rounds: 4 (bound floor(log2 n)+1 = 5)") || !strings.Contains(out, "for R = 4;") {
		t.Errorf("check --from without notes: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
}

// TestFranklinRoundsLive: the live runtime carries the leader event's
// rounds too (Franklin's rounds depend on the ids, not the schedule).
func TestFranklinRoundsLive(t *testing.T) {
	code, out, errs := runCLI(t, t.Context(), "election", "franklin", "--nodes", "16", "--layout", "random", "--seed", "3", "--runtime", "live")
	if code != 0 || !strings.Contains(out, "rounds: 4 (bound floor(log2 n)+1 = 5)") {
		t.Errorf("live franklin: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
}
