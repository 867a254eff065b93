package labtest

import (
	"os"
	"strings"
	"testing"
)

// Quoted returns the lines of the fenced block that follows the marker
// "<!-- key -->" in the file at path (a lab's README.md), each trimmed of
// its spaces, without empty lines and "…" (a cut): what a README shows a
// test's output to be, so that a grading test can check it against the
// real output (Want.Output). A missing marker or block fails t.
func Quoted(t testing.TB, path, key string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "<!-- "+key+" -->\n")
	if !ok {
		t.Fatalf("%s: no <!-- %s --> marker", path, key)
	}
	if !strings.HasPrefix(after, "```") {
		t.Fatalf("%s: no fenced block right after <!-- %s -->", path, key)
	}
	_, after, _ = strings.Cut(after, "\n")
	block, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatalf("%s: the block after <!-- %s --> does not end", path, key)
	}
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if l = strings.TrimSpace(l); l != "" && l != "…" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("%s: the block after <!-- %s --> is empty", path, key)
	}
	return lines
}
