package raymond_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
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

// The line of 3 nodes, every node asking once and twice: every state
// explored, every verdict proved, the counts pinned; no schedule costs
// more than 2·D = 4 messages per entry.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		requests string
		want     counts
	}{
		{"1", counts{142, 175, 3, 10, "proved: mutual exclusion, every request granted, termination, over all 142 states"}},
		{"2", counts{860, 1201, 3, 18, "proved: mutual exclusion, every request granted, termination, over all 860 states"}},
	} {
		code, out := run(twin(raymond.Config{}), "check", "raymond", "--nodes", "3", "--requests", tc.requests)
		if code != 0 {
			t.Fatalf("--requests %s: exit %d\n%s", tc.requests, code, out)
		}
		if got := parse(t, out); got != tc.want {
			t.Fatalf("--requests %s: %+v, want %+v\n%s", tc.requests, got, tc.want, out)
		}
		entries := 3 * int(tc.requests[0]-'0')
		if theory := entries * 2 * raymond.Line(3).Diameter(); tc.want.mostMessages > theory {
			t.Fatalf("--requests %s: %d messages for %d entries, above 2·D each (%d)", tc.requests, tc.want.mostMessages, entries, theory)
		}
	}
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
