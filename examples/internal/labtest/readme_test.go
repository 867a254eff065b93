package labtest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestQuoted: the block after the marker, trimmed, without blank lines
// and cuts; the other blocks are not read.
func TestQuoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	text := "# Lab\n\n<!-- other -->\n```\nnot this\n```\n\n<!-- skeleton hidden -->\n```\n--- FAIL: X\n    x_test.go:3: boom\n\n…\n        path: c1\n```\nafter\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Quoted(t, path, "skeleton hidden")
	if want := []string{"--- FAIL: X", "x_test.go:3: boom", "path: c1"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
