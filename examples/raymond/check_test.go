package raymond_test

import (
	"bytes"
	"context"
	"fmt"
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

// counts is what an exhaustive check prints of its search and verdicts.
type counts struct {
	states, transitions, terminal int
	mostMessages                  int
	proved                        string
}

// parse reads the counts from a check's output.
func parse(t *testing.T, out string) counts {
	t.Helper()
	var c counts
	for line := range strings.Lines(out) {
		switch {
		case strings.HasPrefix(line, "states: "):
			if _, err := fmt.Sscanf(line, "states: %d distinct, ", &c.states); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			_, rest, _ := strings.Cut(line, "), ")
			if _, err := fmt.Sscanf(rest, "%d transitions, %d terminal", &c.transitions, &c.terminal); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		case strings.HasPrefix(line, "  messages: most "):
			fmt.Sscanf(line, "  messages: most %d", &c.mostMessages)
		case strings.HasPrefix(line, "proved: "):
			c.proved = strings.TrimSpace(line)
		}
	}
	if c.states == 0 {
		t.Fatalf("no states line in\n%s", out)
	}
	return c
}

// twin is the algorithm with the hand-written twin's nodes.
func twin(c raymond.Config) engine.Algorithm {
	return raymond.AlgorithmOf("raymond", c, func(c raymond.Config, i int) node.Node { return handwritten.New(c, i) })
}

// row is one line of the README's table of checks: a command and what
// it prints.
var row = regexp.MustCompile("(?m)^\\| `raymond (check [^`]*)` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+)[^|]* \\| (\\w+) \\|$")

// The README's table of checks, command by command: every state explored,
// the counts it states, every verdict proved; and no schedule costs more
// than 2·D messages per entry (D = 2 on the line of 3).
func TestCheck(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := row.FindAllStringSubmatch(string(readme), -1)
	if len(rows) < 2 {
		t.Fatalf("%d rows in the README's table of checks", len(rows))
	}
	for _, r := range rows {
		var want counts
		for k, f := range []*int{&want.states, &want.transitions, &want.terminal, &want.mostMessages} {
			*f, _ = strconv.Atoi(r[k+2]) // the pattern matched digits
		}
		if r[6] != "proved" {
			t.Fatalf("%s: the README says %q", r[1], r[6])
		}
		args := strings.Fields(r[1])
		code, out := run(twin(raymond.Config{}), args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", r[1], code, out)
		}
		got := parse(t, out)
		if !strings.HasPrefix(got.proved, "proved: mutual exclusion, every request granted") {
			t.Fatalf("%s: %q", r[1], got.proved)
		}
		got.proved = ""
		if got != want {
			t.Fatalf("%s: %+v, the README says %+v\n%s", r[1], got, want, out)
		}
		entries := 3 * requests(t, args)
		if theory := entries * 2 * raymond.Line(3).Diameter(); got.mostMessages > theory {
			t.Fatalf("%s: %d messages for %d entries, above 2·D each (%d)", r[1], got.mostMessages, entries, theory)
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
// finds a schedule where requests are never granted (exit 3), and its
// replay line shows the same violation again.
func TestCheckFindsForgetAsked(t *testing.T) {
	alg := twin(raymond.Config{ForgetAsked: true})
	code, out := run(alg, "check", "raymond", "--nodes", "3", "--requests", "2")
	if code != 3 || !strings.Contains(out, "result: VIOLATION of every request granted") {
		t.Fatalf("exit %d, want 3 and a violation\n%s", code, out)
	}
	m := regexp.MustCompile(`(?m)^replay: (.+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no replay line in\n%s", out)
	}
	replay := m[1]
	args, err := cli.SplitCommand(replay)
	if err != nil || len(args) < 2 {
		t.Fatalf("replay %q: %v", replay, err)
	}
	code, out = run(alg, args[1:]...)
	if code != 3 || !strings.Contains(out, "✗ every request granted") {
		t.Fatalf("%s: exit %d\n%s", replay, code, out)
	}
}
