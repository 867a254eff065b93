package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// deadCitations match references to documents the repository does not hold:
// a specification file and its numbered sections, and the numbered source
// documents the lab was first written from. The repository must stand alone,
// so code, help texts, test names, golden files and READMEs cite the papers,
// the course chapters by name, or a README section instead. The words are
// split so that this file does not match itself.
var deadCitations = []*regexp.Regexp{
	regexp.MustCompile(`\b` + "SP" + `EC\b`),                  // the document's name, with or without .md
	regexp.MustCompile(`§\s*\d`),                              // a numbered section of a document not here
	regexp.MustCompile(`(?i)\b` + "se" + `eds?[ _-]?0\d\d\b`), // a numbered source document
}

// citedFileExts are the files a reader meets: code (and the help texts in
// it), docs, golden outputs and test data text, scripts and the web page.
var citedFileExts = map[string]bool{
	".go": true, ".md": true, ".golden": true, ".txt": true,
	".sh": true, ".html": true, ".js": true,
}

// deadCitation returns the pattern a line matches, or "".
func deadCitation(line string) string {
	for _, re := range deadCitations {
		for _, loc := range re.FindAllStringIndex(line, -1) {
			// Scenario names such as ra-seed001 are commands a user types;
			// they name the example, not a document to open.
			if strings.HasSuffix(line[:loc[0]], "ra-") {
				continue
			}
			return line[loc[0]:loc[1]]
		}
	}
	return ""
}

// TestNoDeadCitations walks the repository and fails on every line that
// cites a document the repository does not hold, listing file:line.
func TestNoDeadCitations(t *testing.T) {
	var found []string
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == ".git" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if !citedFileExts[ext] && !strings.HasPrefix(path, ".ci"+string(filepath.Separator)) {
			return nil
		}
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
		for n := 1; sc.Scan(); n++ {
			if m := deadCitation(sc.Text()); m != "" {
				found = append(found, fmt.Sprintf("%s:%d: %q in %s", path, n, m, strings.TrimSpace(sc.Text())))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked only %d files: is the test running at the repository's root?", files)
	}
	if len(found) > 0 {
		t.Errorf("%d references to documents the repository does not hold; cite the paper, the course chapter by name or a README section instead:\n%s",
			len(found), strings.Join(found, "\n"))
	}
}

// The matcher itself: the old citation forms are caught, and what only looks
// like them (scenario names, random seeds, words containing "spec") is not.
func TestDeadCitationPatterns(t *testing.T) {
	sp, se, sec := "SP"+"EC", "se"+"ed", "\u00a7" // built so this file does not match itself
	for _, line := range []string{
		"// Package ricart (" + sp + ".md " + sec + "2.4) on a complete graph.",
		`Usage: "mutual exclusion (` + sp + " " + sec + `2): six algorithms"`,
		"// Decisions the " + sp + " leaves open:",
		"// the worked example of " + se + " 001",
		"// " + se + "s 000 and 001",
		"// Se" + "ed 004 \"Anel 1\"",
		"// " + se + "002's default configuration",
		"// see " + sec + "3.6",
		"ringlab mutex scenario ra-" + se + "001 (" + se + " 001's example)",
	} {
		if deadCitation(line) == "" {
			t.Errorf("not caught: %s", line)
		}
	}
	for _, line := range []string{
		"ringlab mutex scenario ra-" + se + "001 --format svg",
		"| `ra-" + se + "000` | Ricart-Agrawala with clients A, B, C | 0 |",
		"ringlab ring --delay 0 --seed 7",
		"mutex scenario ra-" + se + "001 on sim, 6 nodes, seed 1: 36 steps",
		"// Package ringspec is the ring election of the specification.",
		"// seed 1000 draws the layout",
	} {
		if m := deadCitation(line); m != "" {
			t.Errorf("caught %q in: %s", m, line)
		}
	}
}
