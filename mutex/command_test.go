package mutex

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/urfave/cli/v2"
	"go.uber.org/goleak"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/run"
	"ringlab/engine/trace"
	"ringlab/internal/clitest"
	"ringlab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// runCLI runs `ringlab mutex ARGS...` in-process and returns stdout, stderr
// and the exit code main would give.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := clitest.Run(context.Background(), []*cli.Command{Command()}, &out, &errb, append([]string{"ringlab", "mutex"}, args...))
	if err != nil {
		errb.WriteString("ringlab: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), cliutil.Code(err)
}

// checkGolden compares got with testdata/name.golden (rewritten with -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got), *update)
}

// Every scenario of the issue reproduces from its name (mutex/README.md, "Scenarios"),
// with its transcript and its exit code: 3 where the
// chapter shows a violation, 4 for the split-vote deadlock, 0 otherwise.
func TestScenarios(t *testing.T) {
	for _, s := range scenarios() {
		t.Run(s.name, func(t *testing.T) {
			out, errb, code := runCLI(t, "scenario", s.name)
			if code != s.want {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, s.want, errb)
			}
			checkGolden(t, "scenario-"+s.name, out)
		})
	}
}

// Ricart-Agrawala with N32, N12 and N80: the order of entries is N32, N80, N12, and every
// entry costs 2(N-1) = 10 messages.
func TestRAExampleOrder(t *testing.T) {
	out, errb, _ := runCLI(t, "scenario", "ra-seed001", "--format", "none")
	for _, want := range []string{"entry order: N32, N80, N12", "messages per entry: 10 (theory 2(N-1) = 10)", "✓ mutual exclusion", "✓ grant order"} {
		if !strings.Contains(errb, want) {
			t.Errorf("summary lacks %q:\n%s%s", want, out, errb)
		}
	}
}

// The scenarios' options: the chapter's remedies and the FIFO contrast.
func TestScenarioOptions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		// Quorum: a retry timer with backoff breaks the split votes.
		{[]string{"scenario", "quorum-split", "--retry-timeout", "10", "--format", "none"}, 0, "entry order: P1, P2, P3"},
		// Token ring: without regeneration the lost token stops the ring.
		{[]string{"scenario", "token-lost", "--regen-timeout", "0", "--format", "none"}, 4, "✗ no deadlock: P3 still waiting"},
		// Lamport: on FIFO links the explorer finds no violation.
		{[]string{"scenario", "lamport-nonfifo", "--policy", "fifo", "--schedules", "500"}, 0, "no violation in 500 schedules"},
	} {
		out, errb, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errb, tc.want) {
			t.Errorf("%v: exit %d (want %d), want %q in:\n%s%s", tc.args, code, tc.code, tc.want, out, errb)
		}
	}
}

// Bad input is one line naming the flag and the allowed range, exit 2, and
// no run.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"central", "--nodes", "1"}, "--nodes must be between 2 and 1024"},
		{[]string{"token-ring", "--nodes", "1"}, "--nodes must be between 2 and 1024"},
		{[]string{"ricart-agrawala", "--nodes", "0"}, "--nodes must be between 1 and 1024"},
		{[]string{"lamport", "--requests", "0"}, "--requests must be between 1"},
		{[]string{"maekawa", "--cs-time", "-1"}, "--cs-time must be between 0"},
		{[]string{"central", "--think-time", "-3"}, "--think-time must be between 0"},
		{[]string{"central", "--grant-timeout", "-1"}, "--grant-timeout must be between 0"},
		{[]string{"quorum", "--coordinators", "4", "--quorum", "2"}, "--quorum: quorum m=2: must be more than half"},
		{[]string{"quorum", "--coordinators", "3", "--quorum", "4"}, "at most all: 2..3"},
		{[]string{"quorum", "--nodes", "0"}, "--nodes must be between 1"},
		{[]string{"quorum-probability", "--n", "4", "--m", "2"}, "--m: quorum m=2"},
		{[]string{"quorum-probability", "--p", "1.5"}, "--p must be a probability in [0,1]"},
		{[]string{"quorum-probability", "--p", "-0.1"}, "--p must be a probability in [0,1]"},
		{[]string{"scenario", "no-such"}, `unknown subcommand "no-such"`},
		{[]string{"explore", "no-such"}, `unknown subcommand "no-such"`},
		{[]string{"explore", "lamport", "--property", "speed"}, `--property: no property "speed" here; want one of: mutual-exclusion`},
		{[]string{"compare", "--nodes", "1,3"}, "--nodes: want comma-separated counts, each 2..256"},
		{[]string{"lamport", "--format", "xml"}, "--format"},
		{[]string{"lamport", "extra"}, `unexpected argument "extra"`},
	} {
		out, errb, code := runCLI(t, tc.args...)
		if code != cliutil.ExitUsage || !strings.Contains(errb, tc.want) || strings.Count(errb, "\n") != 1 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errb, tc.want)
		}
	}
}

// Every command's --help has a runnable example.
func TestHelpHasExample(t *testing.T) {
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string(nil), path...), c.Name)
			out, _, code := runCLI(t, append(p[1:], "--help")...)
			if code != 0 || !strings.Contains(out, "Example") || !strings.Contains(out, "ringlab mutex") {
				t.Errorf("%v --help: exit %d, no example:\n%s", p, code, out)
			}
			walk(p, c.Subcommands)
		}
	}
	walk([]string{"mutex"}, Command().Subcommands)
}

// --format json is NDJSON ending with the summary and its verdicts.
func TestJSON(t *testing.T) {
	out, _, code := runCLI(t, "central", "--nodes", "3", "--requests", "1", "--seed", "1", "--format", "json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if code != 0 || !strings.HasPrefix(lines[0], `{"v":1`) || !strings.Contains(last, `"kind":"summary"`) ||
		!strings.Contains(last, `"property":"no starvation","ok":true`) {
		t.Fatalf("exit %d; first %s; last %s", code, lines[0], last)
	}
}

// Every algorithm runs on real goroutines (the live runtime under the fake
// clock of testing/synctest) with every verdict green. The token ring runs
// without CS or think time: an unwanted token circulates without pause, so
// the fake clock, which moves only when every goroutine is blocked, would
// never reach the next request.
func TestLive(t *testing.T) {
	for _, a := range list() {
		t.Run(a.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				args := []string{a.name, "--runtime", "live", "--tick", "1ms", "--seed", "1", "--format", "none"}
				if a.name == "token-ring" {
					args = append(args, "--cs-time", "0", "--think-time", "0")
				}
				out, errb, code := runCLI(t, args...)
				if code != 0 || strings.Contains(errb, "✗") {
					t.Fatalf("exit %d:\n%s%s", code, out, errb)
				}
			})
		})
	}
}

// Ctrl-C during compare: no panic, the rows measured so far, exit 130.
func TestCompareInterrupted(t *testing.T) {
	var out, errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := clitest.Run(ctx, []*cli.Command{Command()}, &out, &errb, []string{"ringlab", "mutex", "compare", "--nodes", "3,9"})
	if cliutil.Code(err) != cliutil.ExitInterrupted {
		t.Fatalf("err = %v (code %d), want 130", err, cliutil.Code(err))
	}
}

// TestProgressTyped: a failed liveness verdict (no deadlock, no
// starvation) of a mutex run that ends owing its promise (a node waits)
// is "no progress", exit 4, through any wrapping of the violation,
// because the property is a liveness property (a check.Eventually); a
// safety one stays exit 3 whatever its detail says.
func TestProgressTyped(t *testing.T) {
	sys, err := Algorithms()[0].Build(Algorithms()[0].Defaults(), engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkLivenessExits(t, sys)
}

// checkLivenessExits fails t unless a failed verdict of sys's properties
// exits 4 for no deadlock and no starvation, 3 for mutual exclusion,
// through any wrapping, in a run that ends owing the promise of every
// liveness property.
func checkLivenessExits(t *testing.T, sys engine.System) {
	t.Helper()
	var owed []check.ID
	for _, p := range sys.Properties {
		if _, live := p.(check.Eventually); live {
			owed = append(owed, p.ID())
		}
	}
	outcome := func(failed, detail string) error {
		o := run.Outcome{Result: engine.Result{End: engine.Quiescent}, Properties: sys.Properties, Owed: owed,
			Summary: trace.Summary{Replay: "ringlab mutex central"}}
		for _, p := range sys.Properties {
			v := trace.Verdict{Property: string(p.ID()), OK: true}
			if v.Property == failed {
				v.OK, v.Detail = false, detail
			}
			o.Summary.Verdicts = append(o.Summary.Verdicts, v)
		}
		return o.Err()
	}
	dead := outcome("no deadlock", "node 2 waits")
	starved := outcome("no starvation", "1 request(s) of node 2 never granted")
	safe := outcome("mutual exclusion", "no deadlock violated: a detail that quotes another verdict")
	for _, c := range []struct {
		err  error
		code int
	}{
		{dead, cliutil.ExitNoTermination},
		{fmt.Errorf("node 3: %w", dead), cliutil.ExitNoTermination},
		{starved, cliutil.ExitNoTermination},
		{safe, cliutil.ExitViolation},
		{fmt.Errorf("node 3: %w", safe), cliutil.ExitViolation},
	} {
		if got := cliutil.Code(c.err); got != c.code {
			t.Errorf("%v: exit %d, want %d", c.err, got, c.code)
		}
	}
	if got := dead.Error(); got != "no progress: no deadlock violated: node 2 waits (replay: ringlab mutex central)" {
		t.Errorf("message %q", got)
	}
}

// TestTimedRequestTyped: the worked example's timed requests are
// CmdRequest actions with their timestamp in Arg: the log carries it as
// "arg", the text shows request@115, and Ricart-Agrawala's REQUEST
// messages carry T = 115 and 110.
func TestTimedRequestTyped(t *testing.T) {
	out, errs, code := runCLI(t, "scenario", "ra-seed001", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`"node":4,"kind":"cmd","cmd":"request","arg":115,`, `"node":6,"kind":"cmd","cmd":"request","arg":110,`,
		`"from":4,"to":1,"msg":{"type":"REQUEST","id":12,"kind":"REQUEST","t":115}`, `"from":6,"to":1,"msg":{"type":"REQUEST","id":80,"kind":"REQUEST","t":110}`} {
		if !strings.Contains(out, want) {
			t.Errorf("the log has no %s", want)
		}
	}
	if strings.Contains(out, "request@") {
		t.Error("the log carries a command's parameter inside its name")
	}
}
