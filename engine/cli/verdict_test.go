package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// relay is a token algorithm written to be got wrong, for the checks of
// this file: every node but node 1 asks once for the critical section;
// node 1 starts a token round the ring that records who was served, and
// the node that sees it has served every one keeps it, which ends the run.
// Its bug (a parameter) is a student's: "forget", a release that forgets to
// record itself in the token, which then goes round for ever though
// everyone was served; "skip", node N that passes the token on without
// entering, so that its request stays owed for ever while the token goes
// round; "stale", a node the token passed before it asked, that takes
// itself for served and never enters, so that the schedules where a
// request comes late go round for ever while the others end.
type relay struct {
	i, n          int
	want, skip    bool
	forget, done  bool
	stale, passed bool
}

// Tok is relay's token: the nodes served (bit i-1: node i).
type Tok struct{ Served uint64 }

func (Tok) Type() string { return "TOK" }

func (r *relay) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart:
		out.Send(r.i%r.n+1, Tok{})
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		r.want = true
	case in.Kind == node.InMsg:
		t := in.Msg.(Tok)
		if r.want && !(r.skip && r.i == r.n) && !(r.stale && r.passed) {
			out.EnterCS()
			out.ExitCS()
			r.want = false
			if !r.forget {
				t.Served |= 1 << (r.i - 1)
			}
		}
		r.passed = r.stale && (r.passed || !r.want)
		all := uint64(1)<<r.n - 2 // nodes 2..N
		if t.Served&all == all {
			r.done = true // the last to be served keeps the token: the run is over
			break
		}
		out.Send(r.i%r.n+1, t)
	}
	out.Done = !r.want
}

func (r *relay) Clone() node.Node { c := *r; return &c }
func (r *relay) AppendKey(x []byte) []byte {
	return node.AppendBool(node.AppendBool(node.AppendBool(x, r.want), r.done), r.passed)
}

// granted is "every request is eventually granted" for relay: a promise
// (check.Eventually) the liveness pass judges over cycles, and at a run's
// end the requests left waiting.
type granted struct{ owed check.Owed }

func newGranted() *granted {
	return &granted{owed: check.Owed{
		Ask:    func(e *trace.Event) bool { return e.Kind == trace.KindCmd && e.Cmd == string(node.CmdRequest) },
		Answer: func(e *trace.Event) bool { return e.Kind == trace.KindEnterCS },
		Kinds:  trace.KindsOf(trace.KindCmd, trace.KindEnterCS),
	}}
}

func (*granted) ID() check.ID                    { return "every request granted" }
func (g *granted) Observe(e *trace.Event) string { g.owed.Observe(e); return "" }
func (*granted) Promise() check.Promise          { return newGranted().owed.Clone() }
func (g *granted) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(g.ID()), OK: g.owed.Owed() == 0}
	if !v.OK {
		v.Detail = fmt.Sprintf("requests of the nodes %b never granted", g.owed.Owed())
	}
	return v
}

func relayAlgorithm() engine.Algorithm {
	return engine.Algorithm{
		Name: "relay", Usage: "a token that records who was served",
		Params: []engine.Param{{Name: "nodes", Default: 3}, {Name: "bug", Default: ""}, {Name: "endless", Default: false}, {Name: "promise", Default: true}},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			n, bug := p.Int("nodes"), p.String("bug")
			script := []node.Action{{Node: 1, Cmd: node.CmdStart}}
			for i := 2; i <= n; i++ {
				script = append(script, node.Action{Node: i, Cmd: node.CmdRequest})
			}
			props := []check.Property{&check.MutualExclusion{}, check.Termination{}}
			if p.Bool("promise") {
				props = append(props, newGranted())
			}
			sys := engine.System{
				Name: "relay", Nodes: n, Topology: trace.TopoRing, Script: script, Messages: []node.Msg{Tok{}},
				Factory: func(i int) (node.Node, error) {
					return &relay{i: i, n: n, forget: bug == "forget", skip: bug == "skip", stale: bug == "stale"}, nil
				},
				Properties: props,
			}
			if p.Bool("endless") {
				sys.Endless = "with --endless no run ends"
			}
			return sys, nil
		},
	}
}

// relayCheck runs `relay check relay ARGS...` in process.
func relayCheck(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"relay", "check", "relay"}, args...), &out, &errb, relayAlgorithm())
	return code, out.String(), errb.String()
}

// lastLine is the last line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// The correct relay ends, and its check is proved: exit 0, and the text
// report ends with the line that says so.
func TestCheckProvedEndsTheReport(t *testing.T) {
	code, out, errs := relayCheck(t)
	if code != 0 || !strings.HasPrefix(lastLine(out), "proved: mutual exclusion, termination, every request granted, over all ") {
		t.Fatalf("exit %d, want 0 and a last line proved: ...\n%s%s", code, out, errs)
	}
	code, out, errs = relayCheck(t, "--format", "json")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || !rep.Proved || rep.Verdict == "" || rep.NotJudged != nil {
		t.Fatalf("--format json: exit %d, %v: %+v\n%s", code, err, rep, errs)
	}
}

// Issue 33, defect 3: a workload that ends whose runs do not. A fair cycle
// on which a request stays owed is a counterexample to termination: exit 3
// with a lasso, and the lasso's replay exits 3 too. On main the check
// said "exhausted, no violation" and exited 0.
func TestCheckRunThatNeverEndsIsALasso(t *testing.T) {
	code, out, errs := relayCheck(t, "--bug", "skip")
	if code != cliutil.ExitViolation || !strings.Contains(out, "LIVENESS VIOLATION of every request granted") || !strings.Contains(out, "\nno run ends: ") {
		t.Fatalf("--bug skip: exit %d, want 3 and a liveness violation\n%s%s", code, out, errs)
	}
	replay := replayOf(t, out)
	if !strings.Contains(strings.Join(replay, " "), "|") {
		t.Fatalf("replay %q is not a lasso", replay)
	}
	var o, e bytes.Buffer
	if code := Run(context.Background(), replay, &o, &e, relayAlgorithm()); code != cliutil.ExitViolation {
		t.Fatalf("the lasso's replay %q: exit %d, want 3\n%s%s", replay, code, o.String(), e.String())
	}
}

// Issue 33, defect 3: a workload that ends whose runs never do, though
// no request stays owed (the release forgets to record who was served, so
// the token goes round for ever): termination, the promise that the run
// ends, is broken by a fair cycle: exit 3 with a lasso that replays. Where
// termination is not asked, what is judged only where a run ends was not
// judged: exit 4, and the last line says which; what is judged at every
// state is proved. On main: exit 0.
func TestCheckRunThatNeverEndsIsNotProved(t *testing.T) {
	for _, args := range [][]string{{"--bug", "forget"}, {"--bug", "forget", "--liveness"}, {"--bug", "forget", "--promise=false"}} {
		code, out, errs := relayCheck(t, args...)
		if code != cliutil.ExitViolation || !strings.Contains(out, "LIVENESS VIOLATION of termination: a fair cycle of 3 steps, reached after 5, on which the run goes on without ending, for ever") {
			t.Fatalf("%q: exit %d, want 3 and termination broken by a fair cycle\n%s%s", args, code, out, errs)
		}
		replay := replayOf(t, out)
		var o, e bytes.Buffer
		if code := Run(context.Background(), replay, &o, &e, relayAlgorithm()); code != cliutil.ExitViolation || !strings.Contains(o.String(), "✗ termination") {
			t.Fatalf("%q: the lasso's replay %q: exit %d, want 3 and ✗ termination\n%s%s", args, replay, code, o.String(), e.String())
		}
	}
	code, out, errs := relayCheck(t, "--bug", "forget", "--property", "every-request-granted")
	last := lastLine(out)
	if code != cliutil.ExitNoTermination || !strings.HasPrefix(last, "not proved: no run ends") || !strings.Contains(last, "every request granted were not judged") || !strings.Contains(errs, last) {
		t.Fatalf("--property every-request-granted: exit %d, want 4 and a last line not proved: no run ends ... not judged\n%s%s", code, out, errs)
	}
	if code, out, errs := relayCheck(t, "--bug", "forget", "--property", "mutual-exclusion"); code != 0 || !strings.HasPrefix(lastLine(out), "proved: mutual exclusion, over all ") {
		t.Fatalf("--property mutual-exclusion: exit %d, want 0, proved\n%s%s", code, out, errs)
	}
}

// Issue 33, defect 5: flags that make the judgement impossible are bad
// input (exit 2, before the search), naming the flag that would make it
// possible. On main both exited 0 with "not judged" or "nothing judged
// over cycles".
func TestCheckRefusesWhatCannotBeJudged(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--endless", "--property", "every-request-granted"}, "add --liveness"},
		{[]string{"--promise=false", "--liveness", "--property", "mutual-exclusion"}, "--liveness: --property mutual-exclusion does not say"},
		{[]string{"--liveness", "--property", "mutual-exclusion"}, "--liveness: --property mutual-exclusion does not say"},
	} {
		code, out, errs := relayCheck(t, c.args...)
		if code != cliutil.ExitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Fatalf("%q: exit %d, want 2 and one line with %q\n%s%s", c.args, code, c.want, out, errs)
		}
	}
	// the same, judged over cycles or with an end, is judged
	if code, out, errs := relayCheck(t, "--endless", "--property", "every-request-granted", "--liveness"); code != 0 {
		t.Fatalf("--endless --liveness: exit %d, want 0\n%s%s", code, out, errs)
	}
	// the default set of an endless workload, without --liveness: exit 4
	code, out, errs := relayCheck(t, "--endless")
	if code != cliutil.ExitNoTermination || !strings.Contains(lastLine(out), "every request granted, judged where a run ends, and with --endless no run ends; --liveness judges") {
		t.Fatalf("--endless: exit %d, want 4\n%s%s", code, out, errs)
	}
}

// Issue 33, defect 3, where some runs end: a late request that the stale
// relay skips for ever while the token goes round, though the runs whose
// requests come first end. Its fair cycle owing the request is a
// counterexample to termination: exit 3 with a lasso whose replay exits 3.
// On main (and before the count of steps back): exit 0, "proved".
func TestCheckSomeRunsNeverEndIsALasso(t *testing.T) {
	for _, args := range [][]string{{"--bug", "stale"}, {"--bug", "stale", "--por=false"}, {"--bug", "stale", "--nodes", "4"}} {
		code, out, errs := relayCheck(t, args...)
		if code != cliutil.ExitViolation || !strings.Contains(out, "LIVENESS VIOLATION of every request granted") || strings.Contains(out, ", 0 terminal;") {
			t.Fatalf("%q: exit %d, want 3, terminal states and a liveness violation\n%s%s", args, code, out, errs)
		}
		replay := replayOf(t, out)
		var o, e bytes.Buffer
		if code := Run(context.Background(), replay, &o, &e, relayAlgorithm()); code != cliutil.ExitViolation || !strings.Contains(strings.Join(replay, " "), "|") {
			t.Fatalf("%q: the lasso's replay %q: exit %d, want 3\n%s%s", args, replay, code, o.String(), e.String())
		}
	}
}

// Issue 33, defect 3: a fair cycle on which nothing is owed (no promise
// asked but termination), where other runs end, is a run that never ends:
// termination is broken, exit 3, and the lasso replays with the same
// flags (--promise=false too: it was replayed as --promise). Without
// termination asked, what is judged at every state is proved. On main:
// exit 0, "proved".
func TestCheckSomeRunsNeverEndBreakTermination(t *testing.T) {
	code, out, errs := relayCheck(t, "--bug", "stale", "--promise=false")
	if code != cliutil.ExitViolation || !strings.Contains(out, "LIVENESS VIOLATION of termination") || strings.Contains(out, ", 0 terminal;") {
		t.Fatalf("exit %d, want 3 and termination broken\n%s%s", code, out, errs)
	}
	replay := replayOf(t, out)
	var o, e bytes.Buffer
	if code := Run(context.Background(), replay, &o, &e, relayAlgorithm()); code != cliutil.ExitViolation || !slices.Contains(replay, "--promise=false") {
		t.Fatalf("the lasso's replay %q: exit %d, want 3 and --promise=false\n%s%s", replay, code, o.String(), e.String())
	}
	if code, out, errs := relayCheck(t, "--bug", "stale", "--property", "mutual-exclusion"); code != 0 {
		t.Fatalf("--property mutual-exclusion: exit %d, want 0\n%s%s", code, out, errs)
	}
}
