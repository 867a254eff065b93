package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// propertyCommands are the command paths that take --property (groups of
// algorithm subcommands by their parent: "mutex check").
func propertyCommands(cmds []*cli.Command, path string, out map[string]bool) {
	for _, c := range cmds {
		p := strings.TrimSpace(path + " " + c.Name)
		if slices.ContainsFunc(c.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), "property") }) {
			if words := strings.Fields(p); len(words) == 3 && (words[0] == "mutex" || words[0] == "election") {
				p = strings.Join(words[:2], " ")
			}
			out[p] = true
		}
		propertyCommands(c.Subcommands, p, out)
	}
}

// Every command that takes --property refuses a name its run does not
// check (exit 2, one line listing the names it does) and reads the names
// it checks in any case, with '-', '_' or a blank between words: an
// unknown name must never pass for a proof that nothing is violated.
func TestEveryPropertyFlagRefusesUnknownNames(t *testing.T) {
	log := filepath.Join(t.TempDir(), "ra.ndjson")
	_, lines, _ := logOf(t, []string{"mutex", "ricart-agrawala", "--nodes", "3", "--seed", "1"})
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mutexProps := "want one of: mutual-exclusion, grant-order, no-deadlock, no-starvation, termination"
	electionProps := "want one of: termination, uniqueness, agreement, correctness"
	table := []struct {
		group string
		args  []string // without --property
		good  string   // a name it checks, spelled as a user might
		code  int      // the exit code with the good name
		want  string   // the list a bad name is refused with
	}{
		// a violation in 7 steps: the good name finds it, a bad one must not claim a proof
		{"mutex check", []string{"mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10"}, "Mutual_Exclusion", 3, mutexProps},
		{"mutex check", []string{"mutex", "check", "central", "--nodes", "3", "--grant-timeout", "10"}, "mutual exclusion", 3, mutexProps},
		{"election check", []string{"election", "check", "bully", "--nodes", "3", "--initiators", "2"}, "uniqueness", 3, electionProps},
		{"mutex explore", []string{"mutex", "explore", "central", "--nodes", "3", "--grant-timeout", "5", "--latency", "1-10", "--schedules", "200", "--seed", "1"}, "mutual-exclusion", 3, mutexProps},
		{"election explore", []string{"election", "explore", "anonymous", "--initiators", "all", "--schedules", "50", "--seed", "1"}, "UNIQUENESS", 3, electionProps},
		{"check", []string{"check", "--from", log}, "no_deadlock", 0, mutexProps},
	}
	covered := map[string]bool{}
	for _, tc := range table {
		covered[tc.group] = true
		for _, bad := range []string{"mutual.exclusion", "agreemnt", "foo", "", "mutualexclusion", "mutual--"} {
			code, out, errs := runCLI(t, t.Context(), append(tc.args, "--property", bad)...)
			if code != 2 || out != "" || !strings.Contains(errs, "--property") || !strings.Contains(errs, tc.want) ||
				strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("%v --property %q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q",
					tc.args, bad, code, out, errs, tc.want)
			}
		}
		code, out, errs := runCLI(t, t.Context(), append(tc.args, "--property", tc.good)...)
		if code != tc.code {
			t.Errorf("%v --property %q: exit %d, want %d\n%s%s", tc.args, tc.good, code, tc.code, out, errs)
		}
	}
	all := map[string]bool{}
	propertyCommands(newApp(nil, nil, areas()...).Commands, "", all)
	for p := range all {
		if !covered[p] {
			t.Errorf("%q takes --property but the table does not cover it", p)
		}
	}
}
