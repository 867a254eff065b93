package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// A simulator run of 10^9 steps stops at once on Ctrl-C (a cancelled
// context) and still prints its summary, every verdict marked interrupted;
// the error is the context's (exit 130). "At once" is judged in steps, which
// load cannot change: the cancel happens inside the run, at a known step, and
// the run may take at most maxLate more steps (the simulator looks at Cancel
// every few thousand steps). The wall time is logged, not judged.
func TestCancelStopsASimulatorRun(t *testing.T) {
	const maxLate = 100_000
	spec := passSpec(1000, 1_000_000_000)
	opts := simOpts("none", 1)
	opts.MaxSteps, opts.Timeout = 2_000_000_000, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var t0 time.Time
	var cmds int
	spec.Observe = func(*trace.Event) {
		if cmds++; cmds == 1 {
			t0 = time.Now()
			cancel()
		}
	}
	spec.ObserveKinds = trace.KindsOf(trace.KindCmd)
	var out, errb bytes.Buffer
	o, err := Execute(ctx, spec, opts, "ringlab test", &out, &errb)
	t.Logf("stopped %v after the cancel, %d steps", time.Since(t0), o.Summary.Steps)
	if !errors.Is(err, context.Canceled) || cliutil.Code(err) != cliutil.ExitInterrupted {
		t.Fatalf("err = %v (code %d), want the context's (130)", err, cliutil.Code(err))
	}
	if o.Summary.Steps == 0 || o.Summary.Steps > maxLate {
		t.Errorf("partial summary has %d steps, want 1..%d: the cancel came at the first command", o.Summary.Steps, maxLate)
	}
	for _, v := range o.Summary.Verdicts {
		if !strings.HasPrefix(v.Detail, "interrupted") {
			t.Errorf("verdict %+v is not marked interrupted", v)
		}
	}
	if !strings.Contains(errb.String(), "termination: interrupted") {
		t.Errorf("the summary on stderr does not say so:\n%s", errb.String())
	}
}

// --timeout bounds a simulator run in wall time: the run is reported as
// not terminating (exit 4), with what it did so far.
func TestTimeoutBoundsASimulatorRun(t *testing.T) {
	opts := simOpts("none", 1)
	opts.MaxSteps, opts.Timeout = 2_000_000_000, 50*time.Millisecond
	o, _, err := execute(t, passSpec(100, 1_000_000_000), opts)
	if cliutil.Code(err) != cliutil.ExitNoTermination || !strings.Contains(err.Error(), "--timeout") {
		t.Fatalf("err = %v (code %d), want no termination (4) naming --timeout", err, cliutil.Code(err))
	}
	if o.Result.End == engine.Quiescent || o.Summary.Steps == 0 {
		t.Fatalf("outcome %+v", o.Summary)
	}
}

// A run cut short by its step budget exits 4, even though its end-of-run
// verdicts (here the message bound's) are then unmet too.
func TestBudgetExhaustionExits4(t *testing.T) {
	opts := simOpts("none", 1)
	opts.MaxSteps = 10
	o, _, err := execute(t, passSpec(5, 100), opts)
	if cliutil.Code(err) != cliutil.ExitNoTermination {
		t.Fatalf("err = %v (code %d), want 4", err, cliutil.Code(err))
	}
	if o.Result.End == engine.Quiescent {
		t.Fatal("reported as terminated")
	}
}

// A scripted action due after everything else has settled still happens
// (virtual time jumps to it), and a fault window that opens after the end
// is listed as never applied.
func TestScriptedActionsAfterQuiescence(t *testing.T) {
	opts := simOpts("json", 1)
	opts.Script = []node.Action{{At: 1_000_000_000, Node: 2, Cmd: node.CmdCrash}}
	opts.Faults.Partitions = []sim.Partition{{Group: []int{1, 2}, From: 2_000_000_000, Until: 2_000_000_010}}
	o, log, err := execute(t, passSpec(5, 10), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log, `"t":1000000000,"node":2,"kind":"crash"`) {
		t.Fatalf("the crash at t=1e9 did not happen:\n%s", log)
	}
	if o.Summary.Time != 1_000_000_000 {
		t.Errorf("run ended at t=%d", o.Summary.Time)
	}
	if len(o.Summary.Unapplied) != 1 || !strings.Contains(o.Summary.Unapplied[0], "partition 1,2@2000000000-2000000010 never opened") {
		t.Errorf("unapplied = %q", o.Summary.Unapplied)
	}
}

// Options built by hand (a compare command's) have no Timeout: that means
// no wall-clock bound, not a deadline already passed.
func TestZeroTimeoutIsNoBound(t *testing.T) {
	opts := simOpts("none", 1)
	opts.Timeout = 0
	if _, _, err := execute(t, passSpec(100, 100_000), opts); err != nil {
		t.Fatal(err)
	}
}

// Ctrl-C during the extremes' pass, after the search was exhausted, exits
// 130 with the search's figures printed, not 0 with "not computed". The
// cancel comes when the pass builds its initial state: at the first call
// of the factory past those a check without the pass makes (counted
// first; the test checks the search was exhausted, so the cancel cannot
// have come earlier).
func TestCancelInTheExtremesExits130(t *testing.T) {
	counting := func(cancelAfter int, cancel func()) (engine.Algorithm, *int) {
		alg := batonAlgorithm()
		build := alg.Build
		calls := new(int)
		alg.Build = func(p engine.Params, env engine.Env) (engine.System, error) {
			sys, err := build(p, env)
			factory := sys.Factory
			sys.Factory = func(i int) (node.Node, error) {
				if *calls++; cancelAfter > 0 && *calls > cancelAfter {
					cancel()
				}
				return factory(i)
			}
			return sys, err
		}
		return alg, calls
	}
	args := []string{"relayer", "check", "baton", "--workers", "1"}
	alg, before := counting(0, nil)
	if code := Run(t.Context(), append(args, "--extremes=false"), io.Discard, io.Discard, alg); code != 0 {
		t.Fatalf("check --extremes=false: exit %d", code)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	alg, _ = counting(*before, cancel)
	var out, errb bytes.Buffer
	code := Run(ctx, append(args, "--extremes"), &out, &errb, alg)
	if !strings.Contains(out.String(), "result: exhausted, no violation") {
		t.Fatalf("the search was not exhausted before the cancel (exit %d):\n%s\n%s", code, out.String(), errb.String())
	}
	if code != cliutil.ExitInterrupted {
		t.Errorf("exit %d, want 130:\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String()+errb.String(), "over every schedule: interrupted") {
		t.Errorf("the extremes are not said to be interrupted:\n%s\n%s", out.String(), errb.String())
	}
}
