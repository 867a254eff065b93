package election

import (
	"bytes"
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/urfave/cli/v2"
	"go.uber.org/goleak"

	"ringlab/engine/cliutil"
	"ringlab/internal/clitest"
	"ringlab/internal/golden"
)

// update rewrites the golden transcripts: go test ./election -update
var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// result is one in-process command line.
type result struct {
	out, errb string
	code      int
	err       error
}

// runCLI runs `ringlab election ARGS...` in-process, as main does.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	err := clitest.Run(context.Background(), []*cli.Command{Command()}, &out, &errb, append([]string{"ringlab", "election"}, args...))
	return result{out: out.String(), errb: errb.String(), code: cliutil.Code(err), err: err}
}

// checkGolden compares got with testdata/name (rewritten under -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got), *update)
}

// want asserts the exit code and that the output has every fragment.
func (r result) want(t *testing.T, code int, fragments ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d (err %v), want %d\nstdout:\n%s\nstderr:\n%s", r.code, r.err, code, r.out, r.errb)
	}
	all := r.out + r.errb
	if r.err != nil {
		all += r.err.Error()
	}
	for _, f := range fragments {
		if !strings.Contains(all, f) {
			t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s\nerr: %v", f, r.out, r.errb, r.err)
		}
	}
}

// Every command's --help has a runnable example (STYLE.md, CLI).
func TestHelpHasExample(t *testing.T) {
	cmds := []string{"compare"}
	for _, a := range Algorithms() {
		cmds = append(cmds, a.Name, "explore "+a.Name)
	}
	for _, c := range cmds {
		r := runCLI(t, append(strings.Fields(c), "--help")...)
		r.want(t, 0, "Example", "ringlab election")
	}
}

// Bad input: one line naming the flag, exit 2, no run started.
func TestBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"ring", "--ids", "5,3,5"}, "--ids: ids must be distinct: nodes 1 and 3 both have id 5"},
		{[]string{"ring", "--ids", "5,x,7"}, `--ids: "x" is not an integer`},
		{[]string{"ring", "--ids", ""}, `--ids: "" is not an integer`},
		{[]string{"anonymous", "--nodes", "1"}, "--nodes: this election needs 2..2000000 nodes, got 1"},
		{[]string{"chang-roberts", "--nodes", "0"}, "--nodes: this election needs 1..2000000 nodes, got 0"},
		{[]string{"ring", "--initiators", "6"}, "--initiators: want all or node indices in 1..5, got \"6\""},
		{[]string{"ring", "--initiators", "0"}, "--initiators: want all or node indices in 1..5"},
		{[]string{"ring", "--initiators", "2,2"}, "--initiators: node 2 is listed twice"},
		{[]string{"yoyo", "--graph", "1-2,3-4"}, "--graph: the graph is not connected"},
		{[]string{"yoyo", "--graph", "1-1"}, "--graph: edge \"1-1\" joins node 1 to itself"},
		{[]string{"yoyo", "--graph", "1-2", "--ids", "1,2,3"}, "--ids: 3 ids for the 2 nodes of --graph"},
		{[]string{"yoyo", "--topology", "star"}, "--topology: unknown topology \"star\""},
		{[]string{"ring", "--nodes", "5", "--layout", "spiral"}, "--layout: unknown layout \"spiral\""},
		{[]string{"ring", "--ids", "1,2", "--nodes", "2"}, "--ids and --nodes exclude each other"},
		{[]string{"franklin", "--ids", "0,1"}, "--ids: node 1 has id 0; this election needs ids >= 1"},
		{[]string{"ring", "--lang", "fr"}, "--lang: unknown language \"fr\""},
		{[]string{"ring", "--fix", "magic"}, "--fix: unknown fix \"magic\""},
		{[]string{"bully", "--scenario", "chapter", "--ids", "1,2"}, "--scenario chapter fixes ids 1..5"},
		{[]string{"bully", "--scenario", "split-brain", "--runtime", "live"}, "--scenario split-brain slows node 5"},
		{[]string{"check", "bully", "--scenario", "split-brain"}, "this scenario needs the simulator's slow links"},
		{[]string{"bully", "--scenario", "nap"}, "--scenario: unknown scenario \"nap\""},
		{[]string{"bully", "--reply-timeout", "0"}, "--reply-timeout must be 1..1000000 ticks"},
		{[]string{"paxos"}, "unknown subcommand \"paxos\""},
		{[]string{"explore", "paxos"}, "unknown subcommand \"paxos\""},
		{[]string{"compare", "--algos", "ring,paxos"}, "--algos: unknown value \"paxos\""},
		{[]string{"compare", "--layout", "median"}, "--layout: unknown value \"median\""},
		{[]string{"compare", "--nodes", "8,x"}, "--nodes: want sizes in 1..65536"},
		{[]string{"ring", "extra"}, "unexpected argument \"extra\""},
		{[]string{"ring", "--runtime", "quantum"}, "--runtime: unknown runtime"},
		{[]string{"ring", "--nodes", "4", "--layout-seed", "3"}, "--layout-seed draws a random layout or topology"},
		{[]string{"compare", "--format", "yaml"}, "--format: unknown format \"yaml\""},
	}
	for _, tt := range tests {
		r := runCLI(t, tt.args...)
		r.want(t, cliutil.ExitUsage, tt.want)
		if msg := r.err.Error(); strings.Contains(msg, "\n") {
			t.Errorf("%v: error spans lines: %q", tt.args, msg)
		}
		if r.out != "" {
			t.Errorf("%v: a run started: %q", tt.args, r.out)
		}
	}
}

// --format none builds only the events the verdicts and figures need; the
// figures come out as they do when every event is rendered.
func TestSilentRunsKeepTheFigures(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		figure string // the summary line's start
	}{
		{[]string{"idlist", "--nodes", "12", "--layout", "random"}, "ids carried:"},
		{[]string{"franklin", "--nodes", "16", "--layout", "random"}, "rounds:"},
		{[]string{"ring", "--initiators", "all"}, "rule 4 fired:"},
		{[]string{"chang-roberts", "--nodes", "40", "--layout", "random"}, "messages:"},
	} {
		line := func(format string) string {
			r := runCLI(t, append(tc.args, "--seed", "1", "--format", format)...)
			r.want(t, 0, "✓ uniqueness", "✓ agreement", "✓ correctness")
			for l := range strings.SplitSeq(r.out+r.errb, "\n") {
				if strings.HasPrefix(l, tc.figure) {
					return l
				}
			}
			t.Errorf("%v --format %s: no line %q", tc.args, format, tc.figure)
			return ""
		}
		if silent, full := line("none"), line("text"); silent != full {
			t.Errorf("%v: --format none says %q, --format text %q", tc.args, silent, full)
		}
	}
}

// A crash scripted for after the election really happens, is noticed, and
// the next highest id is elected: the expected leader comes from the
// crashes of the run, not from the script alone.
func TestBullyCrashAfterTheElection(t *testing.T) {
	r := runCLI(t, "bully", "--nodes", "5", "--initiators", "1", "--crash", "5@50", "--seed", "1")
	r.want(t, 0, "t=50     N5       CRASH", "✓ correctness: leader should be id 4 (the highest live id)")
	// The same on goroutines: the crash happens (idle time is skipped),
	// the lowest live node notices it, and id 4 is elected. Bully is
	// correct only while its timeouts outlast every message delay, so the
	// run goes under testing/synctest's fake clock, which moves only when
	// every goroutine waits: on the wall clock of a loaded machine under
	// the race detector a 3 ms reply timeout once expired before the reply
	// came, and two nodes took themselves as leader, as the chapter warns.
	synctest.Test(t, func(t *testing.T) {
		r := runCLI(t, "bully", "--nodes", "5", "--initiators", "1", "--crash", "5@50", "--runtime", "live", "--format", "none")
		r.want(t, 0, "✓ correctness: leader should be id 4 (the highest live id)")
	})
}

// Ctrl-C during compare stops it with exit 130.
func TestCompareInterrupted(t *testing.T) {
	var out, errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := clitest.Run(ctx, []*cli.Command{Command()}, &out, &errb, []string{"ringlab", "election", "compare", "--nodes", "8,4096"})
	if cliutil.Code(err) != cliutil.ExitInterrupted {
		t.Fatalf("err = %v (code %d), want 130", err, cliutil.Code(err))
	}
}
