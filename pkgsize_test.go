package main

import (
	"bytes"
	"os"
	"path"
	"strings"
	"testing"
)

// maxPackageLines is the most non-test lines a package of the repository
// may hold: a bigger one is split by meaning, so that a student can read
// one part (the search, its reductions, the analyses over its graph)
// without the others.
const maxPackageLines = 5000

// TestNoBigPackages: no directory of the repository holds more than
// maxPackageLines lines of non-test Go (testdata left out; the examples
// module's packages count too).
func TestNoBigPackages(t *testing.T) {
	lines := map[string]int{}
	for _, p := range repoPaths(t) {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.Contains(p, "testdata/") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines[path.Dir(p)] += bytes.Count(b, []byte("\n"))
	}
	if len(lines) < 50 || lines["engine/statespace"] == 0 {
		t.Fatalf("counted %d directories, engine/statespace %d lines: is the walk broken?", len(lines), lines["engine/statespace"])
	}
	for dir, n := range lines {
		if n > maxPackageLines {
			t.Errorf("%s holds %d non-test lines, over %d: split it by meaning", dir, n, maxPackageLines)
		}
	}
}
