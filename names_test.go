package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"ringlab/election"
	"ringlab/engine/trace"
	"ringlab/mutex"
)

// byIndex finds a node named by its index ("node 3", "Node 3", "nodes 2"),
// a name no view shows: every node has one display name.
var byIndex = regexp.MustCompile(`(?i)(^|[^-])\bnodes? \d+`)

// specTranscript matches the ring election's text lines that are the
// specification's own expected output, byte for byte ("[Node 4] ...",
// "✓ Leader elected: Node 4 (ID=1)"): they name nodes as it does.
var specTranscript = regexp.MustCompile(`^(\[Node \d+\] |[✓✗] )`)

// namesOf returns the display names the NDJSON header of a run lists.
func namesOf(t *testing.T, args []string) []string {
	t.Helper()
	_, js, errs := runCLI(t, t.Context(), append(args, "--format", "json")...)
	first, _, _ := strings.Cut(js, "\n")
	var h trace.Header
	if err := json.Unmarshal([]byte(first), &h); err != nil || h.Kind != "header" {
		t.Fatalf("%q: first line %q is not a header: %v (stderr %q)", args, first, err, errs)
	}
	names := make([]string, h.Nodes)
	for i := range names {
		names[i] = h.Name(i + 1)
	}
	return names
}

// indexMentions returns the lines of out that name a node by its index,
// less the label "NAME (node I)" of the diagrams, which gives node I's
// display name with the index the flags take (--crash I@T).
func indexMentions(out string, names []string, spec bool) []string {
	var bad []string
	for _, line := range strings.Split(out, "\n") {
		if spec && specTranscript.MatchString(line) {
			continue
		}
		l := line
		for i, name := range names {
			l = strings.ReplaceAll(l, fmt.Sprintf("%s (node %d)", name, i+1), name)
		}
		if byIndex.MatchString(l) {
			bad = append(bad, line)
		}
	}
	return bad
}

// nameCase is one algorithm's runs: the flags of a run that makes its
// nodes talk about each other (timeouts, crashes), and of a small check.
type nameCase struct {
	area, algo string
	run        []string // flags of the run, explore and the NDJSON header
	check      []string // flags of `check` (nil: no check)
}

// TestOneNamePerNode runs every algorithm of both areas, and every mutex
// scenario, on the simulator (text, Mermaid, SVG), under explore and under
// the exhaustive check, and fails on any output line that names a node by
// its index rather than its display name.
func TestOneNamePerNode(t *testing.T) {
	cases := []nameCase{
		{"mutex", "central", []string{"--nodes", "4", "--grant-timeout", "3", "--crash", "2@4"}, []string{"--nodes", "3", "--grant-timeout", "10"}},
		{"mutex", "token-ring", []string{"--nodes", "4", "--regen-timeout", "6", "--crash", "2@4"}, []string{"--nodes", "3", "--regen-timeout", "5"}},
		{"mutex", "quorum", []string{"--nodes", "2", "--crash", "1@3", "--restart", "1@9", "--retry-timeout", "30"}, []string{"--nodes", "3"}},
		{"mutex", "ricart-agrawala", []string{"--nodes", "3", "--reply-timeout", "4", "--crash", "2@2"}, []string{"--nodes", "2", "--reply-timeout", "3"}},
		{"mutex", "lamport", []string{"--nodes", "3", "--crash", "2@6"}, []string{"--nodes", "2", "--policy", "random"}},
		{"mutex", "maekawa", []string{"--nodes", "4", "--crash", "2@6"}, []string{"--nodes", "2"}},
		{"election", "ring", []string{"--initiators", "all"}, []string{"--nodes", "3", "--initiators", "all"}},
		{"election", "anonymous", []string{"--initiators", "all", "--nodes", "3"}, []string{"--nodes", "2", "--initiators", "all"}},
		{"election", "idlist", []string{"--initiators", "all"}, []string{"--nodes", "3"}},
		{"election", "chang-roberts", []string{"--crash", "2@1"}, []string{"--nodes", "3"}},
		{"election", "franklin", []string{"--crash", "3@2"}, []string{"--nodes", "3"}},
		{"election", "bully", []string{"--crash", "5@1"}, []string{"--nodes", "3", "--crashes", "1"}},
		{"election", "yoyo", []string{"--nodes", "4"}, []string{"--nodes", "3"}},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.area+" "+tc.algo] = true
	}
	for _, a := range mutex.Area().Names() {
		if !covered["mutex "+a] {
			t.Errorf("mutex %s is not in the table", a)
		}
	}
	for _, a := range election.Algorithms() {
		if !covered["election "+a.Name] {
			t.Errorf("election %s is not in the table", a.Name)
		}
	}
	check := func(what string, names []string, spec bool, out string) {
		t.Helper()
		for _, l := range indexMentions(out, names, spec) {
			t.Errorf("%s names a node by its index (names %v):\n%s", what, names, l)
		}
	}
	for _, tc := range cases {
		run := append([]string{tc.area, tc.algo, "--seed", "3"}, tc.run...)
		names := namesOf(t, run)
		for _, format := range []string{"text", "mermaid", "svg"} {
			_, out, errs := runCLI(t, t.Context(), append(run, "--format", format)...)
			spec := tc.algo == "ring" && format == "text"
			check(fmt.Sprintf("%q --format %s", run, format), names, spec, out+errs)
		}
		explore := append([]string{tc.area, "explore", tc.algo, "--seed", "1", "--schedules", "30"}, tc.run...)
		_, out, errs := runCLI(t, t.Context(), explore...)
		check(fmt.Sprintf("%q", explore), names, tc.algo == "ring", out+errs)
		if tc.check != nil {
			checkNames := namesOf(t, append([]string{tc.area, tc.algo, "--seed", "1"}, tc.check[:2]...))
			args := append([]string{tc.area, "check", tc.algo}, tc.check...)
			_, out, errs := runCLI(t, t.Context(), args...)
			check(fmt.Sprintf("%q", args), checkNames, tc.algo == "ring", out+errs)
			_, out, errs = runCLI(t, t.Context(), append(args, "--format", "mermaid")...)
			check(fmt.Sprintf("%q --format mermaid", args), checkNames, false, out+errs)
		}
	}
	_, list, _ := runCLI(t, t.Context(), "mutex", "scenario", "--help")
	scenarios := regexp.MustCompile(`(?m)^   ([a-z0-9-]+) {2,}`).FindAllStringSubmatch(list, -1)
	if len(scenarios) < 5 {
		t.Fatalf("found %d scenarios in %q", len(scenarios), list)
	}
	for _, m := range scenarios {
		if m[1] == "help" {
			continue
		}
		args := []string{"mutex", "scenario", m[1]}
		names := namesOf(t, args)
		for _, format := range []string{"text", "mermaid", "svg", "vc"} {
			if format == "vc" { // the verdicts by happens-before
				args, format = append(args, "--vc"), "text"
			}
			_, out, errs := runCLI(t, t.Context(), append(args, "--format", format)...)
			check(fmt.Sprintf("%q --format %s", args, format), names, false, out+errs)
		}
	}
}
