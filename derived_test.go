package main

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/node"
)

// derivedRuns are the checks that TestDerivedEqualsHandWritten runs twice:
// every algorithm of every area with its defaults, and the reductions and
// liveness passes of the mutex algorithms on small parameters.
var derivedRuns = [][]string{
	{"mutex", "check", "lamport", "--nodes", "2", "--requests", "0", "--liveness"},
	{"mutex", "check", "lamport", "--nodes", "3", "--clock", "requests", "--requests", "0", "--max-clock", "3", "--property", "mutual-exclusion"},
	{"mutex", "check", "ricart-agrawala", "--nodes", "2", "--requests", "0", "--liveness"},
	// two requests at N = 2 (105 states): at N = 3 (289,060 states, a
	// minute and more under -race) mutex's BenchmarkCheck compares the
	// two searches, ricart-agrawala-2 keys=hand and keys=derived
	{"mutex", "check", "ricart-agrawala", "--nodes", "2", "--requests", "2"},
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

// fastPaths are the shipped algorithms whose node keeps a hand-written
// Clone and AppendKey (node.Snapshot), each because BenchmarkKeys shows it
// at least 10% faster than the copy and key the engine derives; every
// other algorithm is a state struct and a Step.
var fastPaths = []string{"mutex central", "mutex token-ring", "mutex quorum", "mutex ricart-agrawala", "mutex lamport", "mutex maekawa", "election chang-roberts", "election franklin", "election bully", "election yoyo"}

// hasFastPath reports whether the first node of algorithm name of area,
// built with its defaults, is a node.Snapshot.
func hasFastPath(t *testing.T, area, name string) bool {
	nd, err := keysConfig(t, area, name, nil).Factory(1)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := nd.(node.Snapshot)
	return ok
}

// TestDerivedEqualsHandWritten: the shipped algorithms with a fast path
// are those of fastPaths, and for them the copy and key the engine
// derives from a node's Go value (check's hidden --derived) and the
// node's own Clone and AppendKey give the same output: the same states,
// transitions and terminal states, the same verdicts and paths, the same
// exit code.
func TestDerivedEqualsHandWritten(t *testing.T) {
	runs, fast := slices.Clone(derivedRuns), map[string]bool{}
	var with []string
	for _, a := range areas() {
		for _, alg := range a.Algorithms {
			runs = append(runs, []string{a.Name, "check", alg.Name})
			if fast[alg.Name] = hasFastPath(t, a.Name, alg.Name); fast[alg.Name] {
				with = append(with, a.Name+" "+alg.Name)
			}
		}
	}
	if !slices.Equal(with, fastPaths) {
		t.Fatalf("algorithms with a hand-written Clone and AppendKey:\n%q\nwant %q", with, fastPaths)
	}
	for _, args := range runs {
		if !fast[args[2]] || testing.Short() && len(args) > 3 {
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
