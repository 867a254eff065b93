package mutex

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
)

// checkReplays runs an exhaustive check that must find a violation after
// exactly steps steps, with the detail its replayed trace shows, then runs
// the replay command it printed and compares the replay's output with the
// trace the check printed, byte for byte.
func checkReplays(t *testing.T, run func(*testing.T, ...string) (string, string, int), area string, steps int, args ...string) {
	t.Helper()
	out, errb, code := run(t, args...)
	if code != cliutil.ExitViolation {
		t.Fatalf("%v: exit %d, want %d\n%s\n%s", args, code, cliutil.ExitViolation, out, errb)
	}
	head, trace, ok := strings.Cut(out, "\n\n")
	if !ok {
		t.Fatalf("no trace after the figures:\n%s", out)
	}
	want := " after " + itoa(steps) + " steps (a shortest path)"
	if !strings.Contains(head, want) {
		t.Errorf("%v: want a violation %s, got:\n%s", args, want, head)
	}
	// The check judges with the run's own properties: the violation it
	// reports is, word for word, the one the replayed trace shows.
	for line := range strings.SplitSeq(head, "\n") {
		if r, ok := strings.CutPrefix(line, "result: VIOLATION of "); ok {
			prop, rest, _ := strings.Cut(r, " after ")
			_, detail, _ := strings.Cut(rest, "(a shortest path): ")
			if !strings.Contains(trace, prop+": "+detail+"\n") {
				t.Errorf("%v: the check reports %q, which the replayed trace does not show:\n%s", args, prop+": "+detail, trace)
			}
		}
	}
	// The full search, without the partial-order reduction, finds one
	// as short.
	if full, _, _ := run(t, append(args[:len(args):len(args)], "--por=false")...); !strings.Contains(full, want) {
		t.Errorf("%v --por=false: want a violation %s, got:\n%s", args, want, full)
	}
	var replay string
	for line := range strings.SplitSeq(head, "\n") {
		if r, ok := strings.CutPrefix(line, "replay: "); ok {
			replay = r
		}
	}
	prefix := "ringlab " + area + " "
	if !strings.HasPrefix(replay, prefix) {
		t.Fatalf("replay command %q does not start with %q", replay, prefix)
	}
	rout, rerr, rcode := run(t, strings.Fields(strings.TrimPrefix(replay, prefix))...)
	if rcode != cliutil.ExitViolation {
		t.Fatalf("replay %q: exit %d, want %d\n%s\n%s", replay, rcode, cliutil.ExitViolation, rout, rerr)
	}
	if rout != trace {
		t.Errorf("replay %q differs from the check's trace:\n--- check\n%s\n--- replay\n%s", replay, trace, rout)
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// The chapter's mutual-exclusion warnings, each as a shortest
// counterexample that replays byte for byte. Where the grant order breaks
// first (a node overtakes the request it will then collide with), or one
// token (the regeneration itself, a step before the collision), the check
// looks for mutual exclusion alone.
func TestCheckFindsShortestCounterexamples(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps int
		args  []string
	}{
		// the coordinator's timeout fires while the holder is only slow
		{"central-slow-holder", 7, []string{"check", "central", "--nodes", "3", "--grant-timeout", "10", "--property", "mutual-exclusion"}},
		// a waiting node regenerates the token although the holder is alive
		{"token-regenerated", 4, []string{"check", "token-ring", "--nodes", "3", "--regen-timeout", "5", "--property", "mutual-exclusion"}},
		// a coordinator restarted with amnesia votes twice
		{"quorum-amnesia", 12, []string{"check", "quorum", "--coordinators", "3", "--nodes", "2", "--crashes", "1",
			"--restarts", "1", "--property", "mutual-exclusion"}},
		// split votes: every participant holds one vote, nobody reaches m
		{"quorum-split", 15, []string{"check", "quorum", "--coordinators", "3", "--nodes", "3"}},
		// a peer silent for the timeout counts as a reply
		{"ra-timeout-reply", 4, []string{"check", "ricart-agrawala", "--nodes", "2", "--reply-timeout", "5", "--property", "mutual-exclusion"}},
		// an ACK overtakes its sender's ACQUIRE
		{"lamport-nonfifo", 6, []string{"check", "lamport", "--nodes", "2", "--policy", "random", "--property", "mutual-exclusion"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name == "quorum-split" {
				t.Skip("a 1.5 s search; run without -short")
			}
			checkReplays(t, runCLI, "mutex", tc.steps, tc.args...)
		})
	}
}

// Each algorithm's small space is exhausted with no violation: N = 3 with
// one and two requests per node under FIFO, and under the random policy
// where the algorithm does not need FIFO links; with the partial-order
// reduction and without it, to the same verdict and terminal states.
func TestCheckExhaustsCorrectAlgorithms(t *testing.T) {
	for _, args := range [][]string{
		{"central", "--nodes", "3", "--requests", "2"},
		{"central", "--nodes", "3", "--requests", "2", "--policy", "random"},
		{"token-ring", "--nodes", "3", "--requests", "2"},
		{"token-ring", "--nodes", "3", "--requests", "2", "--policy", "random"},
		{"quorum", "--coordinators", "3", "--nodes", "2", "--requests", "1"},
		{"quorum", "--coordinators", "3", "--nodes", "2", "--requests", "1", "--policy", "random"},
		{"ricart-agrawala", "--nodes", "3", "--requests", "1"},
		{"ricart-agrawala", "--nodes", "3", "--requests", "1", "--policy", "random"},
		{"lamport", "--nodes", "3", "--requests", "1"},
		{"lamport", "--nodes", "2", "--requests", "2"},
		{"lamport", "--nodes", "3", "--requests", "1", "--clock", "requests"},
		{"lamport", "--nodes", "3", "--requests", "0", "--clock", "requests", "--max-clock", "4"},
		{"ricart-agrawala", "--nodes", "3", "--requests", "0", "--max-clock", "5"},
		// no end and no bound: finite because the checker shifts clocks
		{"ricart-agrawala", "--nodes", "3", "--requests", "0"},
		{"lamport", "--nodes", "2", "--requests", "0"},
		{"maekawa", "--nodes", "3", "--requests", "1"},
	} {
		// with no end (--requests 0), no deadlock and no starvation are
		// judged where a run ends, so not at all: not proved, exit 4
		want := 0
		if i := slices.Index(args, "--requests"); args[i+1] == "0" {
			want = 4
		}
		var figs [2]checkFigures
		for k, por := range []string{"--por=true", "--por=false"} {
			out, errb, code := runCLI(t, append([]string{"check", args[0], "--format", "json", por}, args[1:]...)...)
			if err := json.Unmarshal([]byte(out), &figs[k]); code != want || err != nil || !figs[k].Exhausted || figs[k].Property != "" {
				t.Errorf("%v %s: exit %d, want %d (%v)\n%s\n%s", args, por, code, want, err, out, errb)
			}
		}
		sameVerdict(t, args, figs)
	}
}

// checkFigures is what these tests read of a check's JSON figures.
type checkFigures struct {
	Distinct, Terminal int64
	Exhausted          bool
	Property           string
}

// sameVerdict compares a check with the partial-order reduction (figs[0])
// and without (figs[1]): the same verdict, the same terminal states (the
// ample sets keep every terminal state, the sleep sets every state), and
// no more states.
func sameVerdict(t *testing.T, args []string, figs [2]checkFigures) {
	t.Helper()
	on, off := figs[0], figs[1]
	if on.Exhausted != off.Exhausted || on.Property != off.Property || on.Terminal != off.Terminal || on.Distinct > off.Distinct {
		t.Errorf("%v: with the reduction %+v, without %+v", args, on, off)
	}
}

// Bounds stop a search short (exit 4); bad input is a usage error.
func TestCheckBoundsAndBadInput(t *testing.T) {
	out, _, code := runCLI(t, "check", "lamport", "--nodes", "3", "--max-depth", "5")
	if code != cliutil.ExitNoTermination || !strings.Contains(out, "stopped by max-depth") {
		t.Errorf("max-depth: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "check", "lamport", "--nodes", "3", "--max-states", "100", "--format", "json")
	if code != cliutil.ExitNoTermination || !strings.HasPrefix(out, "{") || strings.Count(out, "\n") != 1 ||
		!strings.Contains(out, `"stop":"max-states"`) {
		t.Errorf("max-states json: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"check", "lamport", "--path", "d1-9"},
		{"check", "lamport", "--nodes", "2", "--path", "d1-2"},
		{"check", "lamport", "--crashes", "-1"},
		{"check", "lamport", "--workers", "-1"},
		{"check", "lamport", "--workers", "5000"},
		{"check", "lamport", "--timers", "soon"},
		{"check", "lamport", "--requests", "9"},
		// no end and no bound: an infinite space where clocks do not shift
		{"check", "lamport", "--requests", "0", "--policy", "random"},
		{"check", "lamport", "--requests", "0", "--clock", "requests"},
		{"check", "ricart-agrawala", "--requests", "0", "--policy", "random"},
		{"check", "lamport", "--max-clock", "-1"},
		{"check", "lamport", "--clock", "sometimes"},
		{"lamport", "--requests", "0"},
	} {
		if _, _, code := runCLI(t, args...); code != cliutil.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cliutil.ExitUsage)
		}
	}
}

// Ctrl-C (a cancelled context) stops the search at once and still prints
// the figures so far, with exit code 130.
func TestCheckInterruptedPrintsFigures(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	app := &cli.App{Name: "ringlab", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &errb,
		ExitErrHandler: func(*cli.Context, error) {}}
	cliutil.Prepare(app.Commands)
	err := app.RunContext(ctx, []string{"ringlab", "mutex", "check", "lamport", "--nodes", "3"})
	if code := cliutil.Code(err); code != cliutil.ExitInterrupted {
		t.Fatalf("exit %d (%v), want %d", code, err, cliutil.ExitInterrupted)
	}
	if !strings.Contains(out.String(), "states: ") || !strings.Contains(out.String(), "stopped by interrupted") ||
		!strings.Contains(out.String(), "covered: every state within 0 steps") {
		t.Errorf("no figures after an interruption:\n%s", out.String())
	}
}

// The help of every check command has a runnable example.
func TestCheckHelpHasExample(t *testing.T) {
	for _, a := range list() {
		out, _, code := runCLI(t, "check", a.name, "--help")
		if code != 0 || !strings.Contains(out, "ringlab mutex check "+a.name) || !strings.Contains(out, "exhaustive") {
			t.Errorf("check %s --help: exit %d\n%s", a.name, code, out)
		}
	}
}

// Every mutex node's Clone is independent of its original and its key
// is canonical: every state of a small space, rebuilt from the start
// along its path, has the key the search computed (with faults under the
// random policy, and under FIFO without faults, where the ample sets and
// the queue's decoded states are in play).
func TestSnapshotsAreIndependent(t *testing.T) {
	for _, args := range [][]string{
		{"central", "--nodes", "3", "--requests", "2", "--grant-timeout", "5"},
		{"token-ring", "--nodes", "3", "--requests", "2", "--regen-timeout", "5"},
		{"quorum", "--coordinators", "3", "--nodes", "2", "--requests", "1", "--retry-timeout", "5"},
		{"ricart-agrawala", "--nodes", "3", "--requests", "1"},
		{"lamport", "--nodes", "3", "--requests", "1"},
		{"lamport", "--nodes", "3", "--requests", "1", "--clock", "requests"},
		{"maekawa", "--nodes", "3", "--requests", "1"},
	} {
		cfg := checkConfig(t, args...)
		cfg.POR, cfg.CheckClones = true, true
		cfg.MaxStates, cfg.Crashes, cfg.Restarts, cfg.Policy = 3000, 1, 1, sim.PolicyRandom
		if _, err := statespace.Search(context.Background(), cfg); err != nil {
			t.Errorf("%v: %v", args, err)
		}
		// FIFO and no faults: where the ample sets apply.
		cfg.Crashes, cfg.Restarts, cfg.Policy = 0, 0, sim.PolicyFIFO
		if _, err := statespace.Search(context.Background(), cfg); err != nil {
			t.Errorf("%v, fifo: %v", args, err)
		}
	}
}

// An algorithm's check takes --max-clock exactly when its nodes keep a
// Lamport clock (implement clocked): the flag bounds what the nodes say
// their clock is, with no list of node types to keep in step.
func TestMaxClockWhereNodesHaveAClock(t *testing.T) {
	for _, a := range list() {
		pl, err := a.plan(a.algorithm().Defaults(), 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		nd, err := pl.factory(pl.nodes)
		if err != nil {
			t.Fatal(err)
		}
		_, hasClock := clockOf(nd)
		_, hasFlag := a.algorithm().ForCheck().Param("max-clock")
		if hasClock != a.clock || hasFlag != a.clock {
			t.Errorf("%s: nodes with a clock %v, --max-clock %v, entry says %v", a.name, hasClock, hasFlag, a.clock)
		}
	}
}
