package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	rcli "ringlab/engine/cli"
)

// livenessRow is a row of mutex/README.md's table "What it judges at
// `--requests 0 --liveness`": the arguments and the states found.
var livenessRow = regexp.MustCompile("^\\| `([^`]+)`[^|]* \\| ([0-9][0-9,]*) \\|")

// maxLivenessStates bounds the rows TestMutexLivenessTableStates runs: the
// larger spaces (tens of thousands of states up to millions, seconds to a
// minute under the race detector) are left to the commands the table names.
const maxLivenessStates = 1000

// TestMutexLivenessTableStates runs every row of mutex/README.md's
// liveness table that has at most maxLivenessStates states and compares
// the states the check finds with the row's figure.
func TestMutexLivenessTableStates(t *testing.T) {
	b, err := os.ReadFile("mutex/README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "What it judges at `--requests 0 --liveness`:")
	if !ok {
		t.Fatal("mutex/README.md has no table \"What it judges at `--requests 0 --liveness`\"")
	}
	ran := 0
	for _, line := range strings.Split(strings.TrimLeft(table, "\n"), "\n") {
		if !strings.HasPrefix(line, "|") {
			break // the end of the table
		}
		m := livenessRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		want := strings.ReplaceAll(m[2], ",", "")
		if n, err := strconv.Atoi(want); err != nil || n > maxLivenessStates {
			continue
		}
		args, err := rcli.SplitCommand(m[1])
		if err != nil {
			t.Fatal(err)
		}
		args = append(append([]string{"mutex", "check"}, args...), "--requests", "0", "--liveness")
		_, out, errs := runCLI(t, t.Context(), args...)
		got := ""
		for _, l := range strings.Split(out, "\n") {
			if rest, ok := strings.CutPrefix(l, "states: "); ok {
				got, _, _ = strings.Cut(rest, " distinct")
				break
			}
		}
		if got != want {
			t.Errorf("mutex/README.md says %s states for `%s`; ringlab %s finds %q\n%s", m[2], m[1], strings.Join(args, " "), got, errs)
		}
		ran++
	}
	if ran < 8 {
		t.Errorf("ran only %d rows of the liveness table; is the extraction broken?", ran)
	}
}
