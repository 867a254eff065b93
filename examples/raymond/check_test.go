package raymond_test

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"example.com/ringlab-examples/raymond"
	"example.com/ringlab-examples/raymond/handwritten"
	"ringlab/engine"
	"ringlab/engine/cli"
	"ringlab/engine/node"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// run runs one command line of the raymond program in process, on alg.
func run(alg engine.Algorithm, args ...string) (code int, out string) {
	var stdout, stderr bytes.Buffer
	code = cli.Run(context.Background(), append([]string{"raymond"}, args...), &stdout, &stderr, alg)
	return code, stdout.String() + stderr.String()
}

// counts is what an exhaustive check prints of its search, and its exit code.
type counts struct{ states, transitions, terminal, exit int }

// parse reads the counts from a check's output.
func parse(t *testing.T, code int, out string) counts {
	t.Helper()
	c := counts{exit: code}
	m := regexp.MustCompile(`(?m)^states: (\d+) distinct, .*, (\d+) transitions, (\d+) terminal;`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no states line in\n%s", out)
	}
	for k, f := range []*int{&c.states, &c.transitions, &c.terminal} {
		*f, _ = strconv.Atoi(m[k+1]) // the pattern matched digits
	}
	return c
}

// twin is the algorithm with the hand-written twin's nodes.
func twin(forgetAsked bool) engine.Algorithm {
	return raymond.AlgorithmOf(forgetAsked, func(c raymond.Config, i int) node.Node { return handwritten.New(c, i) })
}

// row is one line of the README's table of checks: a command, the counts
// it prints, its exit code and a verdict line it prints.
var row = regexp.MustCompile("(?m)^\\| `raymond (check [^`]*)` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d) \\| (.+) \\|$")

// The README's table of checks, command by command, on the derived node
// (raymond.Algorithm: the engine copies and keys the state struct) and on
// the hand-written twin: both print the counts, the exit code and the
// verdicts the table states. No schedule
// that ends costs more than 2·D messages per entry, and no cycle of a
// check without end more than 2·D per entry it makes (D = 2 on the line
// of 3).
func TestCheck(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := row.FindAllStringSubmatch(string(readme), -1)
	if len(rows) < 3 {
		t.Fatalf("%d rows in the README's table of checks", len(rows))
	}
	theory := 2 * raymond.Line(3).Diameter()
	for _, r := range rows {
		var want counts
		for k, f := range []*int{&want.states, &want.transitions, &want.terminal, &want.exit} {
			*f, _ = strconv.Atoi(r[k+2]) // the pattern matched digits
		}
		args := strings.Fields(r[1])
		code, out := run(twin(false), args...)
		if got := parse(t, code, out); got != want || !strings.Contains(out, "\n"+r[6]) {
			t.Fatalf("%s, hand-written: %+v, the README says %+v and %q\n%s", r[1], got, want, r[6], out)
		}
		code, derived := run(raymond.Algorithm(), args...)
		if got := parse(t, code, derived); got != want || !strings.Contains(derived, "\n"+r[6]) {
			t.Fatalf("%s, derived: %+v, the README says %+v and %q\n%s", r[1], got, want, r[6], derived)
		}
		entries, most := 3*requests(t, args), 0
		if m := regexp.MustCompile(`(?m)^  messages: most (\d+),`).FindStringSubmatch(out); m != nil {
			most, _ = strconv.Atoi(m[1])
		} else if m := regexp.MustCompile(`(?m)^  messages per entry: most (\d+) = `).FindStringSubmatch(out); m != nil {
			most, _ = strconv.Atoi(m[1])
			entries = 1
		} else {
			t.Fatalf("%s: no count of messages\n%s", r[1], out)
		}
		if most == 0 || most > entries*theory {
			t.Fatalf("%s: most %d messages for %d entries, 2·D = %d each", r[1], most, entries, theory)
		}
	}
}

// requests is the --requests of a command line.
func requests(t *testing.T, args []string) int {
	i := slices.Index(args, "--requests")
	if i < 0 || i+1 == len(args) {
		t.Fatalf("%v: no --requests", args)
	}
	n, err := strconv.Atoi(args[i+1])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The planted bug, a holder that forgets to reset Asked: the checker
// finds a run where requests are never granted (exit 3) with --requests 2,
// and a fair cycle on which one is never granted with --requests 0
// --liveness; each replay line shows the same violation again.
func TestCheckFindsForgetAsked(t *testing.T) {
	for _, tc := range []struct{ args, violation, again string }{
		{"--requests 2", "result: VIOLATION of no deadlock after 12 steps", "✗ no deadlock"},
		{"--requests 0 --liveness", "result: LIVENESS VIOLATION of no starvation", "✗ no starvation"},
	} {
		code, out := run(twin(true), append([]string{"check", "raymond", "--nodes", "3"}, strings.Fields(tc.args)...)...)
		if code != 3 || !strings.Contains(out, tc.violation) {
			t.Fatalf("%s: exit %d, want 3 and %q\n%s", tc.args, code, tc.violation, out)
		}
		derived := raymond.AlgorithmOf(true, func(c raymond.Config, i int) node.Node { return raymond.New(c, i) })
		clock := regexp.MustCompile(`(?m)^time: .*\n|[0-9]+\.[0-9]+s\b`) // the wall clock's figures differ
		if _, again := run(derived, append([]string{"check", "raymond", "--nodes", "3"}, strings.Fields(tc.args)...)...); clock.ReplaceAllString(again, "") != clock.ReplaceAllString(out, "") {
			t.Fatalf("%s: the derived node's check differs from the twin's:\n%s\n----\n%s", tc.args, again, out)
		}
		m := regexp.MustCompile(`(?m)^replay: (.+)$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no replay line in\n%s", tc.args, out)
		}
		args, err := cli.SplitCommand(m[1])
		if err != nil || len(args) < 2 {
			t.Fatalf("replay %q: %v", m[1], err)
		}
		code, out = run(twin(true), args[1:]...)
		if code != 3 || !strings.Contains(out, tc.again) {
			t.Fatalf("%s: exit %d\n%s", m[1], code, out)
		}
	}
}
