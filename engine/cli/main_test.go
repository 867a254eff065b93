package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// baton is a program's algorithm written for these tests: a baton goes
// round a ring of N nodes for hops hops; its holder enters the critical
// section and leaves it. With grab, node N also enters when started,
// without the baton, and stays until a release: two nodes inside at once.
type baton struct {
	i, n, left int
	grab, in   bool
}

// Baton is baton's one message: the hops it has left.
type Baton struct{ Left int }

func (Baton) Type() string { return "BATON" }

func (b *baton) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && b.i == 1:
		b.pass(out, b.left)
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && b.grab:
		out.EnterCS()
		b.in = true
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease && b.in:
		out.ExitCS()
		b.in = false
	case in.Kind == node.InMsg:
		b.pass(out, in.Msg.(Baton).Left)
	}
	out.Done = !b.in
}

func (b *baton) pass(out *node.Output, left int) {
	out.EnterCS()
	out.ExitCS()
	if left > 0 {
		out.Send(b.i%b.n+1, Baton{Left: left - 1})
	}
}

func (b *baton) Clone() node.Node          { c := *b; return &c }
func (b *baton) AppendKey(x []byte) []byte { return node.AppendBool(x, b.in) }

func batonAlgorithm() engine.Algorithm {
	return engine.Algorithm{
		Name: "baton", Usage: "a baton round a ring",
		Params: []engine.Param{
			{Name: "nodes", Default: 3, Check: func(v any) error {
				if n := v.(int); n < 2 || n > 8 {
					return errors.New("must be between 2 and 8")
				}
				return nil
			}},
			{Name: "hops", Default: 4},
			{Name: "grab", Default: false},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			n, hops := p.Int("nodes"), p.Int("hops")
			script := []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}
			var w engine.Workload
			if p.Bool("grab") {
				script = append(script, node.Action{At: 0, Node: n, Cmd: node.CmdStart})
				w = engine.ReactFunc(func(i int, ev node.Event, _ int64) []node.Action {
					if ev.Kind == node.EvEnterCS && i == n {
						return []node.Action{{At: 3, Node: n, Cmd: node.CmdRelease}}
					}
					return nil
				})
			}
			return engine.System{
				Name: "baton", Nodes: n, Topology: trace.TopoRing,
				Factory:    func(i int) (node.Node, error) { return &baton{i: i, n: n, left: hops, grab: p.Bool("grab")}, nil },
				Messages:   []node.Msg{Baton{}},
				Script:     script,
				Workload:   w,
				Properties: []check.Property{&check.MutualExclusion{}, check.Termination{}},
			}, nil
		},
	}
}

// prog runs one command line of a program named by its args[0], made of
// baton.
func prog(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, &out, &errb, batonAlgorithm())
	return code, out.String(), errb.String()
}

// replayOf returns the replay line a command wrote on stderr.
func replayOf(t *testing.T, stderr string) []string {
	t.Helper()
	for line := range strings.Lines(stderr) {
		if r, ok := strings.CutPrefix(strings.TrimSpace(line), "replay: "); ok {
			args, err := SplitCommand(strings.TrimSpace(strings.Split(r, "   (")[0]))
			if err != nil {
				t.Fatal(err)
			}
			return args
		}
	}
	t.Fatalf("no replay line in\n%s", stderr)
	return nil
}

// A program's run prints a replay line that names the program, and the
// line runs again in it to the same output.
func TestProgramRunReplays(t *testing.T) {
	code, out, errs := prog(t, "/somewhere/bin/relayer", "baton", "--hops", "5")
	if code != 0 || !strings.Contains(out, "BATON") || !strings.Contains(out+errs, "✓ mutual exclusion") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	replay := replayOf(t, out+errs)
	if replay[0] != "relayer" || replay[1] != "baton" || !strings.Contains(strings.Join(replay, " "), "--hops 5 --seed ") {
		t.Fatalf("replay %q: want relayer baton --hops 5 --seed N", replay)
	}
	code2, out2, _ := prog(t, replay...)
	if code2 != 0 || out2 != out {
		t.Fatalf("the replay gave exit %d and\n%s\nwant\n%s", code2, out2, out)
	}
}

// Every runtime, and a violation's exit code 3.
func TestProgramRuntimes(t *testing.T) {
	for _, rt := range []string{"sim", "live"} {
		if code, out, errs := prog(t, "relayer", "baton", "--runtime", rt, "--format", "none"); code != 0 || !strings.Contains(out+errs, "messages: 4 (BATON 4)") {
			t.Fatalf("--runtime %s: exit %d\n%s\n%s", rt, code, out, errs)
		}
	}
	if code, out, errs := prog(t, "relayer", "baton", "--grab", "--seed", "2"); code != cliutil.ExitViolation || !strings.Contains(out+errs, "✗ mutual exclusion") {
		t.Fatalf("--grab: exit %d, want 3\n%s\n%s", code, out, errs)
	}
}

// `PROG check ALGO` searches every state; its counterexample's replay
// line (--path) runs in the program; `PROG explore ALGO` finds it too.
func TestProgramCheckAndExplore(t *testing.T) {
	code, out, errs := prog(t, "relayer", "check", "baton", "--grab")
	if code != cliutil.ExitViolation || !strings.Contains(out, "VIOLATION of mutual exclusion") {
		t.Fatalf("check --grab: exit %d, want 3\n%s\n%s", code, out, errs)
	}
	replay := replayOf(t, out)
	if replay[0] != "relayer" || replay[1] != "check" || !strings.Contains(strings.Join(replay, " "), "--path ") {
		t.Fatalf("replay %q", replay)
	}
	if code, out, errs := prog(t, replay...); code != cliutil.ExitViolation || !strings.Contains(out, "VIOLATION of mutual exclusion") {
		t.Fatalf("%q: exit %d, want 3\n%s\n%s", replay, code, out, errs)
	}
	if code, out, errs := prog(t, "relayer", "check", "baton"); code != 0 || !strings.Contains(out, "exhausted, no violation") {
		t.Fatalf("check: exit %d, want 0\n%s\n%s", code, out, errs)
	}
	if code, out, errs := prog(t, "relayer", "explore", "baton", "--grab", "--schedules", "10", "--seed", "1", "--format", "none"); code != cliutil.ExitViolation {
		t.Fatalf("explore --grab: exit %d, want 3\n%s\n%s", code, out, errs)
	}
}

// A log the program wrote is judged by `PROG check --from` (the run
// rebuilt from the log's replay line) and drawn by `PROG render`.
func TestProgramCheckFrom(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--seed", "3"}, 0, "✓ mutual exclusion"},
		{[]string{"--grab", "--seed", "3"}, cliutil.ExitViolation, "✗ mutual exclusion"},
	} {
		f := filepath.Join(dir, "run.ndjson")
		code, _, errs := prog(t, append([]string{"relayer", "baton", "--format", "none", "--events", f}, tc.args...)...)
		if code != tc.code {
			t.Fatalf("%q: exit %d, want %d\n%s", tc.args, code, tc.code, errs)
		}
		code, out, errs := prog(t, "relayer", "check", "--from", f)
		if code != tc.code || !strings.Contains(out+errs, tc.want) || !strings.Contains(out+errs, "replay: relayer baton") {
			t.Fatalf("check --from a log of %q: exit %d, want %d and %q\n%s\n%s", tc.args, code, tc.code, tc.want, out, errs)
		}
		code, out, errs = prog(t, "relayer", "render", "--from", f, "--format", "mermaid")
		if code != 0 || !strings.Contains(out, "sequenceDiagram") || !strings.Contains(out, "replay: relayer baton") {
			t.Fatalf("render: exit %d\n%s\n%s", code, out, errs)
		}
	}
	other := filepath.Join(dir, "other.ndjson")
	if err := os.WriteFile(other, []byte(`{"v":1,"kind":"header","algorithm":"x","runtime":"sim","nodes":2,"replay":"ringlab mutex central --seed 1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := prog(t, "relayer", "check", "--from", other); code != cliutil.ExitUsage || !strings.Contains(errs, "not by a run of an algorithm relayer can re-check") {
		t.Fatalf("a log of another program: exit %d, want 2\n%s\n%s", code, out, errs)
	}
}

// Bad input is one line and exit 2; the help names the program, never
// ringlab.
func TestProgramInputAndHelp(t *testing.T) {
	for _, args := range [][]string{
		{"relayer", "nope"},
		{"relayer", "baton", "--nodes", "1"},
		{"relayer", "check", "nope"},
		{"relayer", "check", "--from", filepath.Join(t.TempDir(), "missing.ndjson")},
		{"relayer", "baton", "extra"},
	} {
		code, out, errs := prog(t, args...)
		if code != cliutil.ExitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "relayer: ") {
			t.Errorf("%q: exit %d, want 2 and one line on stderr\n%s\n%s", args, code, out, errs)
		}
	}
	app, err := App("relayer", nil, nil, batonAlgorithm())
	if err != nil {
		t.Fatal(err)
	}
	walk := func(path []string) {
		code, out, errs := prog(t, append(append([]string{"relayer"}, path...), "--help")...)
		if code != 0 || strings.Contains(out+errs, "ringlab") || !strings.Contains(out, "relayer") {
			t.Errorf("%q --help: exit %d, or ringlab named:\n%s%s", path, code, out, errs)
		}
	}
	for _, c := range app.Commands {
		walk([]string{c.Name})
		for _, s := range c.Subcommands {
			walk([]string{c.Name, s.Name})
		}
	}
}

// A list no program can be made of is the programmer's mistake: exit 1.
func TestProgramRefusesBadAlgorithms(t *testing.T) {
	b := batonAlgorithm()
	named := func(name string) engine.Algorithm { a := batonAlgorithm(); a.Name = name; return a }
	for _, tc := range []struct {
		algs []engine.Algorithm
		want string
	}{
		{nil, "no algorithm"},
		{[]engine.Algorithm{b, b}, `two algorithms are named "baton"`},
		{[]engine.Algorithm{named("check")}, "named after a command"},
		{[]engine.Algorithm{named("a b")}, "not a command name"},
		{[]engine.Algorithm{{Name: "x"}}, "has no Build"},
	} {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), []string{"p", "--help"}, &out, &errb, tc.algs...); code != cliutil.ExitInternal || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%d algorithms: exit %d, want 1 and %q; stderr %s", len(tc.algs), code, tc.want, errb.String())
		}
	}
}

// The command line of a `PROG node` process maps to the one-process run
// its processes make up, which `PROG check --from` rebuilds.
func TestProgramNodeLogs(t *testing.T) {
	area := Area{Name: "relayer", Algorithms: []engine.Algorithm{batonAlgorithm()}}
	area.Node = programNodeRuns(area.Algorithms)
	logs := programNodeLogs("relayer", area, NodeAreas([]Area{area}))
	for _, tc := range []struct{ line, run string }{
		{"relayer node --index 2 --nodes 4", "relayer baton --nodes 4 --runtime amqp --seed 0"},
		{"relayer node --algo baton --index 1", "relayer baton --runtime amqp --seed 0"},
	} {
		run, index, err := logs(tc.line)
		if err != nil || run != tc.run || index != map[bool]int{true: 2, false: 1}[strings.Contains(tc.line, "--index 2")] {
			t.Errorf("%q: %q, %d, %v; want %q", tc.line, run, index, err, tc.run)
		}
	}
	if _, _, err := logs("relayer baton --nodes 3"); err == nil {
		t.Error("a run's command line was read as a node's")
	}
}

// FuzzProgramNodeLogs reads any header line of a node process's log: it
// never panics, an error is one line, and a line it accepts is a run of
// the program's algorithm that the program's own parser reads back.
func FuzzProgramNodeLogs(f *testing.F) {
	for _, s := range []string{
		"relayer node --index 2 --nodes 4", "relayer node --algo baton --index 1 --initiator",
		"relayer node --index x", "relayer node --algo 'b a' --index 1", "ringlab node --ids 1,2", "relayer node --nodes",
	} {
		f.Add(s)
	}
	area := Area{Name: "relayer", Algorithms: []engine.Algorithm{batonAlgorithm()}}
	area.Node = programNodeRuns(area.Algorithms)
	logs := programNodeLogs("relayer", area, NodeAreas([]Area{area}))
	f.Fuzz(func(t *testing.T, line string) {
		run, _, err := logs(line)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		words, err := SplitCommand(run)
		if err != nil || len(words) < 2 || words[0] != "relayer" || words[1] != "baton" {
			t.Fatalf("%q gave the run %q (%v)", line, run, err)
		}
	})
}
