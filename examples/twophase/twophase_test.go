package twophase_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
	"go.uber.org/goleak"

	"example.com/ringlab-examples/twophase"
	"ringlab/engine"
	"ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/registrytest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// twophaseCLI runs one command line of the twophase program in process,
// as cmd/twophase's main does.
func twophaseCLI(t *testing.T, args ...string) (code int, out string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code = cli.Run(context.Background(), append([]string{"twophase"}, args...), &stdout, &stderr, twophase.Algorithm())
	return code, stdout.String() + stderr.String()
}

func want(t *testing.T, what string, code, wantCode int, out string, contains ...string) {
	t.Helper()
	if code != wantCode {
		t.Fatalf("%s: exit %d, want %d\n%s", what, code, wantCode, out)
	}
	for _, c := range contains {
		if !strings.Contains(out, c) {
			t.Fatalf("%s: no %q in\n%s", what, c, out)
		}
	}
}

// Every participant votes yes: all commit, 3N messages, on the simulator
// and on goroutines.
func TestRun(t *testing.T) {
	for _, rt := range []string{"sim", "live"} {
		code, out := twophaseCLI(t, "2pc", "--participants", "3", "--runtime", rt, "--seed", "1", "--format", "none")
		want(t, rt, code, 0, out, "messages: 9 (DECISION 3, PREPARE 3, VOTE 3)", "✓ atomicity", "✓ validity", "✓ termination")
	}
}

// A no vote and a crashed participant: the coordinator aborts (on the
// no, or when its timer fires), and every live participant aborts.
func TestRunWithFaults(t *testing.T) {
	code, out := twophaseCLI(t, "2pc", "--no", "1", "--seed", "1")
	want(t, "--no 1", code, 0, out, "P1          state voted no", "coordinator state aborted", "P3          state aborted", "✓ atomicity")
	code, out = twophaseCLI(t, "2pc", "--crash", "3@1", "--seed", "1")
	want(t, "P2 crashed", code, 0, out, "P2          CRASH", "coordinator state aborted", "P1          state aborted", "✓ validity")
	if strings.Contains(out, "committed") {
		t.Fatalf("a commit without P2's vote:\n%s", out)
	}
	code, out = twophaseCLI(t, "2pc", "--no", "4")
	want(t, "--no beyond the participants", code, cliutil.ExitUsage, out, "--no 4: there are 3 participants")
}

// The planted bug: the exhaustive checker finds it with a shortest path
// (breadth first: four steps, the coordinator's commit on P1's yes after
// P2 voted no), exit 3, and its replay line shows the same violation.
func TestCheckFindsThePlantedBug(t *testing.T) {
	code, out := twophaseCLI(t, "check", "2pc", "--participants", "2", "--no", "2", "--eager", "--format", "none")
	want(t, "check --eager", code, 3, out,
		"VIOLATION of atomicity after 4 steps (a shortest path): coordinator committed and P2 aborted",
		"replay: twophase check 2pc --participants 2 --no 2 --eager --path ")
	var replay string
	for line := range strings.Lines(out) {
		if r, ok := strings.CutPrefix(line, "replay: "); ok {
			replay = strings.TrimSpace(r)
			break
		}
	}
	args, err := cli.SplitCommand(replay)
	if err != nil {
		t.Fatal(err)
	}
	code, out = twophaseCLI(t, args[1:]...)
	want(t, replay, code, 3, out, "coordinator state committed", "✗ atomicity: coordinator committed and P2 aborted", "✗ validity")
}

// The fixed coordinator waits for every vote: the search exhausts the
// space with no violation, with a no vote, and with a crash and a lost
// message anywhere.
func TestCheckFixedIsClean(t *testing.T) {
	for _, args := range [][]string{
		{"--participants", "3", "--no", "2"},
		{"--participants", "3"},
		{"--participants", "2", "--crashes", "1", "--drops", "1"},
	} {
		code, out := twophaseCLI(t, append([]string{"check", "2pc"}, args...)...)
		want(t, strings.Join(args, " "), code, 0, out, "result: exhausted, no violation")
	}
}

// A log the program wrote is judged again from its replay line by
// `twophase check --from`, with the verdicts of the run.
func TestCheckFrom(t *testing.T) {
	f := filepath.Join(t.TempDir(), "run.ndjson")
	code, out := twophaseCLI(t, "2pc", "--no", "2", "--eager", "--seed", "1", "--format", "none", "--events", f)
	want(t, "the run", code, 3, out)
	code, out = twophaseCLI(t, "check", "--from", f)
	want(t, "check --from", code, 3, out, "✗ atomicity", "✗ validity", "replay: twophase 2pc", "checked 26 logged events")
}

// Node steps, by the protocol's rules: a no vote aborts at once; the
// fixed coordinator commits only on the last yes, the eager one on the
// first.
func TestCoordinator(t *testing.T) {
	for _, tc := range []struct {
		eager     bool
		votes     []bool
		committed bool
		decided   int // after this many votes (0: none)
	}{
		{false, []bool{true, true, true}, true, 3},
		{false, []bool{true, false}, false, 2},
		{true, []bool{true}, true, 1},
		{false, []bool{true, true}, false, 0},
	} {
		sys := build(t, "--participants", "3", map[bool]string{true: "--eager", false: "--eager=false"}[tc.eager])
		c, _ := sys.Factory(1)
		var out node.Output
		c.Step(node.Input{Kind: node.InCmd, Cmd: node.CmdStart}, &out)
		decided := 0
		for k, yes := range tc.votes {
			out.Reset()
			c.Step(node.Input{Kind: node.InMsg, From: k + 2, Msg: twophase.Vote{Yes: yes}}, &out)
			if len(out.Events) > 0 {
				if decided != 0 {
					t.Fatalf("%+v: decided twice", tc)
				}
				decided = k + 1
				if got := out.Events[0].State == twophase.StateCommitted; got != tc.committed || len(out.Sends) != 3 {
					t.Fatalf("%+v: decision %v with %d sends", tc, out.Events, len(out.Sends))
				}
			}
		}
		if decided != tc.decided {
			t.Fatalf("%+v: decided after %d votes", tc, decided)
		}
	}
}

// build makes the System the run command builds from args.
func build(t *testing.T, args ...string) engine.System {
	t.Helper()
	sys, err := buildArgs("2pc", args)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func buildArgs(_ string, args []string) (engine.System, error) {
	alg := twophase.Algorithm()
	cmd := &ucli.Command{Name: alg.Name, Flags: cli.ParamFlags(alg)}
	return cliutil.Build(cmd, args, func(c *ucli.Context) (engine.System, error) {
		return cli.Build(c, alg, engine.Env{Runtime: "sim", MaxDelay: 10})
	})
}

// The message registry holds every type the nodes send, under drops,
// duplicates, crashes and any order, and each survives the broker's codec.
func TestRegistry(t *testing.T) {
	registrytest.Sweep(t, []string{"2pc"}, map[string][][]string{"2pc": {
		{"--participants", "3"}, {"--participants", "3", "--no", "1"}, {"--participants", "2", "--eager", "--no", "2"},
	}}, buildArgs)
}

// Example runs the program's run command in process, with faults: P2
// votes no and P3 crashes before it hears the PREPARE.
func Example() {
	args := []string{"twophase", "2pc", "--no", "2", "--crash", "4@0", "--seed", "1", "--format", "none"}
	cli.Run(context.Background(), args, os.Stdout, os.Stdout, twophase.Algorithm())
	// Output:
	// twophase 2pc on sim, 4 nodes, seed 1: 7 steps, t=3
	// messages: 8 (DECISION 3, PREPARE 3, VOTE 2)
	// network: 2 dropped, 0 duplicated
	// ✓ atomicity
	// ✓ validity
	// ✓ termination
	// replay: twophase 2pc --no 2 --format none --crash 4@0 --seed 1
}
