package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	rcli "ringlab/engine/cli"
	"ringlab/internal/racebuild"
)

// A README shows a command's output in one of two ways, and this file
// checks both against the command's real output:
//
//   - a ```sh block of commands followed, with only blank lines between,
//     by a plain ``` block: what they printed;
//   - a line <!-- output of: COMMAND --> right before a fenced block (plain
//     or mermaid): what COMMAND printed, for a command given in the prose.
//
// A line <!-- output not compared: REASON --> right before a ```sh block
// leaves its output out, for the REASON given (a live run, timings, the
// race detector's addresses); the test lists every block it left out and
// why. A line <!-- output compared without -race: REASON --> marks a block
// whose search is too long for CI's race-detector binary: a plain go test
// compares it, a -race one lists it as left out. In an output block a line "…" stands for lines left out: the lines
// between two "…" follow each other in the output, and a block that does
// not start (end) with "…" starts (ends) as the output does.
//
// Output of the race detector is compared by readme_race_test.go instead.
//
// go test -run TestREADME -update rewrites each block that differs from
// the output (an elided block keeps its shape: each run of lines is
// replaced by the lines of the output it stands for) and prints the diff.

var (
	outputOf    = regexp.MustCompile(`^<!-- output of: (.+) -->$`)
	notCompared = regexp.MustCompile(`^<!-- output not compared: (.+) -->$`)
	notRaced    = regexp.MustCompile(`^<!-- output compared without -race: (.+) -->$`)
	exitComment = regexp.MustCompile(`\s+# exit (\d+)$`)
	// volatileLines match lines that hold wall-clock figures that differ on every run;
	// they are compared up to the figures (what the first group holds is compared).
	volatileLines = []*regexp.Regexp{
		regexp.MustCompile(`^(time: )[0-9.]+s, [0-9]+ distinct states/s(?:, [0-9]+ workers)?, memory [0-9.]+ MiB$`),
		regexp.MustCompile(`^(states: [0-9]+ distinct, [0-9]+ transitions; depth [0-9]+; time )[0-9.]+s$`), // a goal's search
	}
)

// outputBlock is one README block of output and the commands that print it.
type outputBlock struct {
	file       string
	line       int      // of the first command, 1-based
	cmds       []string // command lines as written
	out        []string // the block's lines
	start, end int      // the block's lines are lines[start:end] of the file
	skip       string   // why it is not compared, or ""
}

// readmes lists every README.md of the repository.
func allREADMEs(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "README.md" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// outputBlocks finds the output blocks of one README (see the file comment).
func outputBlocks(file string, lines []string) []outputBlock {
	var blocks []outputBlock
	fenceEnd := func(i int) int { // the closing fence of the block opened at i
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				return j
			}
		}
		return len(lines)
	}
	prevNonBlank := func(i int) string {
		for j := i - 1; j >= 0; j-- {
			if s := strings.TrimSpace(lines[j]); s != "" {
				return s
			}
		}
		return ""
	}
	for i := 0; i < len(lines); i++ {
		open := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(open, "```") {
			continue
		}
		end := fenceEnd(i)
		if m := outputOf.FindStringSubmatch(prevNonBlank(i)); m != nil && (open == "```" || open == "```mermaid") {
			blocks = append(blocks, outputBlock{file: file, line: i + 1, cmds: []string{m[1]},
				out: lines[i+1 : end], start: i + 1, end: end})
			i = end
			continue
		}
		if open != "```sh" {
			i = end
			continue
		}
		cmds := lines[i+1 : end]
		k := end + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k >= len(lines) || strings.TrimSpace(lines[k]) != "```" {
			i = end
			continue
		}
		oend := fenceEnd(k)
		b := outputBlock{file: file, line: i + 2, cmds: cmds, out: lines[k+1 : oend], start: k + 1, end: oend}
		if m := notCompared.FindStringSubmatch(prevNonBlank(i)); m != nil {
			b.skip = m[1]
		}
		if m := notRaced.FindStringSubmatch(prevNonBlank(i)); m != nil && racebuild.Enabled {
			b.skip = "under -race: " + m[1]
		}
		blocks = append(blocks, b)
		i = oend
	}
	return blocks
}

// errRacy: a block runs intentionally racy code, which fails a -race test
// binary (exercises/race_test.go runs that code in a subprocess).
var errRacy = errors.New("runs intentionally racy code: not compared under -race")

// runBlock runs a block's commands in a fresh directory, in order, and
// returns what they printed (standard output, then standard error), or why
// it cannot run them.
func runBlock(t *testing.T, b outputBlock) ([]string, error) {
	t.Chdir(t.TempDir()) // a command's --out or > FILE lands there
	var got []string
	for _, line := range b.cmds {
		line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
		if line == "" {
			continue
		}
		want := 0
		if m := exitComment.FindStringSubmatch(line); m != nil {
			want, _ = strconv.Atoi(m[1])
			line = line[:len(line)-len(m[0])]
		}
		var redirect string
		if cmd, file, ok := strings.Cut(line, " > "); ok {
			line, redirect = cmd, strings.TrimSpace(file)
		}
		rest, ok := strings.CutPrefix(line, "ringlab ")
		if !ok {
			return nil, fmt.Errorf("%q is not a ringlab command", line)
		}
		args, err := rcli.SplitCommand(rest)
		if err != nil {
			return nil, err
		}
		if racebuild.Enabled && (args[0] == "exercises" && args[len(args)-1] != "list" && args[len(args)-1] != "--explain" ||
			slices.Contains(args, "racy")) {
			return nil, errRacy
		}
		code, out, errs := runCLI(t, t.Context(), args...)
		if code != want {
			return nil, fmt.Errorf("%q exited %d, the README says %d\n%s%s", line, code, want, out, errs)
		}
		if redirect != "" {
			if err := os.WriteFile(redirect, []byte(out), 0o644); err != nil {
				return nil, err
			}
			out = ""
		}
		got = append(got, outputLines(out)...)
		got = append(got, outputLines(errs)...)
	}
	for len(got) > 0 && strings.TrimSpace(got[0]) == "" { // a block cannot start or end blank
		got = got[1:]
	}
	for len(got) > 0 && strings.TrimSpace(got[len(got)-1]) == "" {
		got = got[:len(got)-1]
	}
	return got, nil
}

func outputLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// same compares a block line with an output line.
func sameLine(want, got string) bool {
	if want == got {
		return true
	}
	for _, v := range volatileLines {
		if mw, mg := v.FindStringSubmatch(want), v.FindStringSubmatch(got); mw != nil && mg != nil && mw[1] == mg[1] {
			return true
		}
	}
	return false
}

// segments splits a block at its "…" lines.
func blockSegments(out []string) (segs [][]string, openStart, openEnd bool) {
	var cur []string
	for k, l := range out {
		if strings.TrimSpace(l) == "…" {
			if k == 0 {
				openStart = true
			}
			if k == len(out)-1 {
				openEnd = true
			}
			if len(cur) > 0 {
				segs = append(segs, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return segs, openStart, openEnd
}

// match places each run of a block's lines in the output: the index in got
// of each segment's first line, and whether all are where the block says.
// An unmatched segment gets the window that matches it best, for -update.
func blockMatch(out, got []string) (at []int, ok bool) {
	segs, openStart, openEnd := blockSegments(out)
	ok = true
	from := 0
	for s, seg := range segs {
		fits := func(p int) int { // lines of seg equal at p, or -1 if seg does not fit
			if p < 0 || p+len(seg) > len(got) {
				return -1
			}
			n := 0
			for k := range seg {
				if sameLine(seg[k], got[p+k]) {
					n++
				}
			}
			return n
		}
		var p int
		switch {
		case s == 0 && !openStart:
			p = 0
		case s == len(segs)-1 && !openEnd:
			p = len(got) - len(seg)
		default:
			p, best := -1, -1
			for q := from; q+len(seg) <= len(got); q++ {
				if n := fits(q); n > best {
					p, best = q, n
					if n == len(seg) {
						break
					}
				}
			}
			if p < 0 {
				return append(at, -1), false
			}
			at = append(at, p)
			if fits(p) != len(seg) {
				ok = false
			}
			from = p + len(seg)
			continue
		}
		if p < from || fits(p) != len(seg) {
			ok = false
		}
		at = append(at, p)
		from = max(from, p+len(seg))
	}
	if len(segs) == 1 && !openStart && !openEnd && len(segs[0]) != len(got) {
		ok = false
	}
	if len(segs) == 0 && len(got) > 0 {
		ok = false
	}
	return at, ok
}

// regenerate writes the block the output gives: the whole output for a
// block without "…", else each run of lines replaced by the output's lines
// at the place match found.
func regenerateBlock(out, got []string) []string {
	segs, openStart, openEnd := blockSegments(out)
	if len(segs) <= 1 && !openStart && !openEnd {
		return got
	}
	at, _ := blockMatch(out, got)
	var b []string
	if openStart {
		b = append(b, "…")
	}
	for s, seg := range segs {
		if s > 0 {
			b = append(b, "…")
		}
		if s < len(at) && at[s] >= 0 {
			p := max(at[s], 0)
			b = append(b, got[p:min(p+len(seg), len(got))]...)
		} else {
			b = append(b, seg...)
		}
	}
	if openEnd {
		b = append(b, "…")
	}
	return b
}

// TestREADMEOutputs runs the commands of every README output block that is
// deterministic (the simulator, a fixed seed) and compares what they print
// with the block.
func TestREADMEOutputs(t *testing.T) {
	compared, skipped := 0, 0
	for _, file := range allREADMEs(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		blocks := outputBlocks(file, lines)
		changed := false
		// from the last block up, so that a rewritten block does not move the others
		for k := len(blocks) - 1; k >= 0; k-- {
			b := blocks[k]
			where := fmt.Sprintf("%s:%d", b.file, b.line)
			if b.skip != "" {
				skipped++
				t.Logf("%s: not compared: %s", where, b.skip)
				continue
			}
			var got []string
			var err error
			t.Run(strings.ReplaceAll(where, "/", "_"), func(t *testing.T) { got, err = runBlock(t, b) })
			if err == errRacy {
				skipped++
				t.Logf("%s: %v", where, err)
				continue
			}
			if err != nil {
				t.Errorf("%s: %v (mark the block <!-- output not compared: REASON --> if its output cannot be compared)", where, err)
				continue
			}
			compared++
			if _, ok := blockMatch(b.out, got); ok {
				continue
			}
			fresh := regenerateBlock(b.out, got)
			t.Errorf("%s: the block differs from the output of %q:\n%s", where, b.cmds, blockDiff(b.out, fresh))
			if *update {
				lines = append(lines[:b.start], append(fresh, lines[b.end:]...)...)
				changed = true
			}
		}
		if changed {
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s rewritten", file)
		}
	}
	if compared < 20 {
		t.Errorf("compared only %d output blocks; is the extraction broken?", compared)
	}
	t.Logf("%d output blocks compared, %d not compared", compared, skipped)
}

// diffLines shows the lines of a that b lacks (-) and of b that a lacks (+),
// in b's order: enough to see what changed in a README block.
func blockDiff(a, b []string) string {
	// longest common subsequence, small inputs
	n, m := len(a), len(b)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if sameLine(a[i], b[j]) {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var d strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && sameLine(a[i], b[j]):
			d.WriteString("    " + a[i] + "\n")
			i, j = i+1, j+1
		case j < m && (i == n || l[i][j+1] >= l[i+1][j]):
			d.WriteString("  + " + b[j] + "\n")
			j++
		default:
			d.WriteString("  - " + a[i] + "\n")
			i++
		}
	}
	return d.String()
}
