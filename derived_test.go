package main

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// derivedRuns are the checks that TestDerivedEqualsHandWritten runs twice:
// every algorithm of every area with its defaults, and the reductions and
// liveness passes of the mutex algorithms on small parameters.
var derivedRuns = [][]string{
	{"mutex", "check", "lamport", "--nodes", "2", "--requests", "0", "--liveness"},
	{"mutex", "check", "lamport", "--nodes", "3", "--clock", "requests", "--requests", "0", "--max-clock", "3", "--property", "mutual-exclusion"},
	{"mutex", "check", "ricart-agrawala", "--nodes", "2", "--requests", "0", "--liveness"},
	{"mutex", "check", "ricart-agrawala", "--nodes", "3", "--requests", "2"},
	{"mutex", "check", "maekawa", "--nodes", "3", "--requests", "1", "--crashes", "1"},
	{"mutex", "check", "token-ring", "--nodes", "3", "--requests", "0", "--liveness", "--property", "no-starvation"},
	{"mutex", "check", "quorum", "--nodes", "3", "--requests", "0", "--liveness", "--max-flight", "1"},
	{"mutex", "check", "central", "--nodes", "3", "--requests", "0", "--liveness"},
	{"election", "check", "franklin", "--crashes", "1"},
}

// seconds is a duration a check prints ("0.002s after the search").
var seconds = regexp.MustCompile(`\b[0-9]+\.[0-9]+s\b`)

// withoutTime is a check's output without the line of its timings, and
// with every other duration it prints as "Ns".
func withoutTime(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if !strings.HasPrefix(line, "time:") {
			b.WriteString(seconds.ReplaceAllString(line, "Ns"))
		}
	}
	return b.String()
}

// TestDerivedEqualsHandWritten: the copy and key the engine derives from
// a node's Go value (check's hidden --derived) and the node's own Clone
// and AppendKey give every shipped algorithm the same output: the same
// states, transitions and terminal states, the same verdicts and paths,
// the same exit code.
func TestDerivedEqualsHandWritten(t *testing.T) {
	runs := slices.Clone(derivedRuns)
	for _, a := range areas() {
		for _, alg := range a.Algorithms {
			runs = append(runs, []string{a.Name, "check", alg.Name})
		}
	}
	if len(runs) < len(derivedRuns)+13 {
		t.Fatalf("%d checks, want the 13 algorithms of mutex and election among them", len(runs))
	}
	for _, args := range runs {
		if testing.Short() && len(args) > 3 {
			continue
		}
		hc, hand, herr := runCLI(t, context.Background(), args...)
		dc, derived, derr := runCLI(t, context.Background(), append(args, "--derived")...)
		// the replay commands of the derived run say --derived
		hand, derived = withoutTime(hand), strings.ReplaceAll(withoutTime(derived), " --derived", "")
		if hc != dc || hand != derived || !strings.Contains(hand, "states: ") {
			t.Errorf("%s: by the node's own methods, exit %d:\n%s%s\nderived, exit %d:\n%s%s", strings.Join(args, " "), hc, hand, herr, dc, derived, derr)
		}
	}
}
