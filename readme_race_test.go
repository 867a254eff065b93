package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A README block that quotes the race detector is marked
//
//	<!-- race report of: ringlab ARGS -->
//
// right before it. TestREADMERaceReports builds ringlab with -race -trimpath
// (so the report's paths are the module's, ringlab/ring/racy.go), runs ARGS
// and compares. A report's addresses, goroutine numbers, code offsets and
// counts differ on every run, and which of two racing goroutines the
// detector meets first depends on the schedule, so the comparison is:
//
//   - each report of the block (from "WARNING: DATA RACE" on) matches a
//     report of the run: each of its sections (an access, a goroutine's
//     creation), cut where the block cuts it at "…", is the start of a
//     section of that report, up to the volatile figures; an access matches
//     in either role ("Write at" and "Previous write at" are the same
//     access seen from the other side);
//   - the positions in this module (ringlab/…/file.go:LINE) are compared
//     exactly; those of the standard library and modules are not (they
//     move with the toolchain);
//   - every other line of the block is a line of the output, up to the
//     figures; a last line "exit N" or "N" is the exit code.
//
// A run may meet the races in another order and report another pair first,
// so a block that does not match is run again, up to raceRuns times: a
// report the code can no longer produce never matches. -update leaves these
// blocks alone: a failure prints the last run, to cut the new block from.

var (
	raceReportOf = regexp.MustCompile(`^<!-- race report of: ringlab (.+) -->$`)
	raceHex      = regexp.MustCompile(`0x[0-9a-f]+`)
	raceDigits   = regexp.MustCompile(`[0-9]+`)
	raceOwnPos   = regexp.MustCompile(`^\s+ringlab/\S+\.go:[0-9]+ \+0x`)
	raceAccess   = regexp.MustCompile(`^(Previous )?(read|write|Read|Write) at `)
	raceCreated  = regexp.MustCompile(`^Goroutine [0-9]+ \([a-z]+\) created at:$`)
	raceExit     = regexp.MustCompile(`^(exit )?([0-9]+)$`)
)

const raceRuns = 10

// raceBlock is one README block of race-detector output.
type raceBlock struct {
	where string
	args  []string
	lines []string
}

func raceBlocks(t *testing.T) []raceBlock {
	t.Helper()
	var blocks []raceBlock
	for _, file := range allREADMEs(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			m := raceReportOf.FindStringSubmatch(strings.TrimSpace(l))
			if m == nil {
				continue
			}
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j >= len(lines) || strings.TrimSpace(lines[j]) != "```" {
				t.Errorf("%s:%d: a race-report marker not followed by a plain ``` block", file, i+1)
				continue
			}
			k := j + 1
			for k < len(lines) && strings.TrimSpace(lines[k]) != "```" {
				k++
			}
			blocks = append(blocks, raceBlock{where: fmt.Sprintf("%s:%d", file, j+2), args: strings.Fields(m[1]), lines: lines[j+1 : min(k, len(lines))]})
		}
	}
	return blocks
}

// raceNormal is a line up to what differs between runs: addresses and
// offsets, goroutine numbers and states, counts, positions outside this
// module; the role of an access ("Previous ") is dropped.
func raceNormal(l string) string {
	own := raceOwnPos.MatchString(l)
	l = raceHex.ReplaceAllString(strings.TrimRight(l, " "), "‹hex›")
	if !own {
		l = raceDigits.ReplaceAllString(l, "N")
	}
	l = strings.NewReplacer("(running)", "(…)", "(finished)", "(…)").Replace(l)
	if m := raceAccess.FindStringSubmatch(l); m != nil && m[1] != "" {
		l = strings.ToUpper(m[2][:1]) + m[2][1:] + l[len(m[0])-len(" at "):]
	}
	return l
}

// raceReport is one report: its sections, each a header and its frames,
// normalised.
type raceReport [][]string

// parseRace splits output (or a block) into its reports and the lines
// outside them.
func parseRace(lines []string) (reports []raceReport, other []string) {
	var cur raceReport
	in := false // inside a report
	sec := -1   // index in cur of the open section, or -1
	for _, l := range lines {
		s := strings.TrimSpace(l)
		switch {
		case s == "WARNING: DATA RACE":
			if in {
				reports = append(reports, cur)
			}
			cur, in, sec = nil, true, -1
		case !in:
			other = append(other, l)
		case s == "==================":
			reports = append(reports, cur)
			cur, in, sec = nil, false, -1
		case raceAccess.MatchString(s) || raceCreated.MatchString(s):
			cur = append(cur, []string{raceNormal(l)})
			sec = len(cur) - 1
		case s == "" || s == "…":
			sec = -1
		case sec >= 0 && strings.HasPrefix(l, "  "):
			cur[sec] = append(cur[sec], raceNormal(l))
		default: // the program's own output between reports, or a block elided past a report
			reports = append(reports, cur)
			cur, in, sec = nil, false, -1
			other = append(other, l)
		}
	}
	if in {
		reports = append(reports, cur)
	}
	return reports, other
}

// prefixOf reports whether section a is the start of section b.
func prefixOf(a, b []string) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// reportMatches reports whether every section of the block's report w is
// the start of a section of the run's report g.
func reportMatches(w, g raceReport) bool {
	for _, ws := range w {
		found := false
		for _, gs := range g {
			if prefixOf(ws, gs) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// raceDiff says why a block does not match a run, or "" if it does.
func raceDiff(block []string, stdout, stderr string, code int) string {
	lines := block
	if n := len(lines); n > 0 {
		if m := raceExit.FindStringSubmatch(strings.TrimSpace(lines[n-1])); m != nil {
			if want, _ := strconv.Atoi(m[2]); want != code {
				return fmt.Sprintf("exit %d, the block says %d", code, want)
			}
			lines = lines[:n-1]
		}
	}
	out := append(outputLines(stdout), outputLines(stderr)...)
	gotReports, gotOther := parseRace(out)
	wantReports, wantOther := parseRace(lines)
	if len(wantReports) == 0 {
		return "the block holds no report"
	}
	for k, w := range wantReports {
		ok := false
		for _, g := range gotReports {
			if reportMatches(w, g) {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Sprintf("report %d of the block is not one of the run's %d reports: %q", k+1, len(gotReports), w)
		}
	}
	seen := map[string]bool{}
	for _, l := range gotOther {
		seen[raceNormal(l)] = true
	}
	for _, l := range wantOther {
		if s := strings.TrimSpace(l); s != "" && s != "…" && !seen[raceNormal(l)] {
			return fmt.Sprintf("the line %q is not in the output", l)
		}
	}
	return ""
}

// buildRace builds ringlab with -race -trimpath, as the READMEs tell a reader to.
func buildRace(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH to build the -race binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "ringlab-race")
	cmd := exec.Command(gobin, "build", "-race", "-trimpath", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -race -trimpath: %v\n%s", err, out)
	}
	return bin
}

// TestREADMERaceReports compares the README blocks that quote the race
// detector with the reports of the current code (see the top of the file).
func TestREADMERaceReports(t *testing.T) {
	blocks := raceBlocks(t)
	if len(blocks) < 4 {
		t.Fatalf("found %d race-report blocks, want the ring's two and the exercises' two", len(blocks))
	}
	if testing.Short() {
		t.Skip("building a -race binary takes tens of seconds; skipped with -short")
	}
	bin := buildRace(t)
	for _, b := range blocks {
		t.Run(strings.ReplaceAll(b.where, "/", "_"), func(t *testing.T) {
			var why, last string
			for run := 1; run <= raceRuns; run++ {
				cmd := exec.Command(bin, b.args...)
				cmd.Dir = t.TempDir()
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if why = raceDiff(b.lines, stdout.String(), stderr.String(), code); why == "" {
					t.Logf("%s: run %d gave the block", b.where, run)
					return
				}
				last = stdout.String() + stderr.String()
			}
			t.Errorf("%s: in %d runs of ringlab %s, none gave the block: %s\nthe last run printed:\n%s",
				b.where, raceRuns, strings.Join(b.args, " "), why, last)
		})
	}
}
