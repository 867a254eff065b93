package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	rcli "ringlab/engine/cli"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// relay is an algorithm written for this test and nowhere else: a token
// goes round a ring of N nodes for R rounds; the node that holds it enters
// the critical section and leaves it before passing the token on. With
// greedy, the last node also enters when told to start, without the token,
// and stays a while: two nodes inside at once, which every tool must find.
type relay struct {
	i, n, left int
	greedy     bool
	inCS       bool
}

// Token is relay's one message: the hops it has left.
type Token struct{ Left int }

func (Token) Type() string { return "TOKEN" }

func (r *relay) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && r.i == 1:
		r.pass(out, r.left)
	case in.Kind == node.InCmd && in.Cmd == node.CmdStart && r.greedy:
		out.EnterCS()
		r.inCS = true
	case in.Kind == node.InCmd && in.Cmd == node.CmdRelease && r.inCS:
		out.ExitCS()
		r.inCS = false
	case in.Kind == node.InMsg:
		r.pass(out, in.Msg.(Token).Left)
	}
	out.Done = !r.inCS
}

func (r *relay) pass(out *node.Output, left int) {
	out.EnterCS()
	out.ExitCS()
	if left > 0 {
		out.Send(r.i%r.n+1, Token{Left: left - 1})
	}
}

func (r *relay) Clone() node.Node { c := *r; return &c }
func (r *relay) AppendKey(b []byte) []byte {
	return node.AppendBool(b, r.inCS)
}

// relayAlgorithm is the one value that describes relay to every tool.
func relayAlgorithm() engine.Algorithm {
	return engine.Algorithm{
		Name:  "relay",
		Usage: "a token round a ring (defined in a test)",
		Params: []engine.Param{
			{Name: "nodes", Usage: "nodes on the ring", Default: 4, Check: func(v any) error {
				if n := v.(int); n < 2 || n > 64 {
					return errors.New("must be between 2 and 64")
				}
				return nil
			}},
			{Name: "hops", Usage: "hops the token makes", Default: 8},
			{Name: "greedy", Usage: "the last node enters without the token", Default: false},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			n, hops := p.Int("nodes"), p.Int("hops")
			script := []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}
			var release engine.Workload
			if p.Bool("greedy") {
				script = append(script, node.Action{At: 0, Node: n, Cmd: node.CmdStart})
				release = engine.ReactFunc(func(i int, ev node.Event, _ int64) []node.Action {
					if ev.Kind == node.EvEnterCS && i == n {
						return []node.Action{{At: 3, Node: n, Cmd: node.CmdRelease}}
					}
					return nil
				})
			}
			return engine.System{
				Name: "toy relay", Nodes: n, Topology: trace.TopoRing,
				Factory: func(i int) (node.Node, error) {
					return &relay{i: i, n: n, left: hops, greedy: p.Bool("greedy")}, nil
				},
				Messages:   []node.Msg{Token{}},
				Script:     script,
				Workload:   release,
				Properties: []check.Property{&check.MutualExclusion{}, check.Termination{}, check.MessageBound{Max: int64(hops), Formula: "hops"}},
			}, nil
		},
	}
}

// TestANewAlgorithmGetsEveryTool registers relay with one line and runs
// it through every tool: a run on the simulator and on goroutines, the
// random explorer, the exhaustive checker, the renderers, and a saved
// log's re-check. No other file names relay.
func TestANewAlgorithmGetsEveryTool(t *testing.T) {
	areas := append(areas(), rcli.Area{Name: "toy", Usage: "test algorithms", Algorithms: []engine.Algorithm{relayAlgorithm()}})
	cli := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := runWith(context.Background(), append([]string{"ringlab"}, args...), &out, &errb, areas)
		return code, out.String(), errb.String()
	}
	want := func(what string, code, wantCode int, out, errs string, contains ...string) {
		t.Helper()
		if code != wantCode {
			t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, code, wantCode, out, errs)
		}
		for _, c := range contains {
			if !strings.Contains(out+errs, c) {
				t.Fatalf("%s: no %q in\n%s\n%s", what, c, out, errs)
			}
		}
	}

	code, out, errs := cli("toy", "relay", "--nodes", "3", "--hops", "6", "--seed", "1")
	want("run on the simulator", code, 0, out, errs, "✓ mutual exclusion", "✓ termination", "messages: 6 (TOKEN 6)")
	code, out, errs = cli("toy", "relay", "--nodes", "3", "--hops", "6", "--runtime", "live", "--format", "none")
	want("run on goroutines", code, 0, out, errs, "messages: 6 (TOKEN 6)")
	code, out, errs = cli("toy", "relay", "--nodes", "1")
	want("a parameter's check", code, 2, out, errs, "--nodes: must be between 2 and 64")

	code, out, errs = cli("toy", "explore", "relay", "--greedy", "--schedules", "20", "--seed", "1")
	want("explore", code, 3, out, errs, "violation found by schedule", "mutual exclusion")
	code, out, errs = cli("toy", "explore", "relay", "--schedules", "20", "--seed", "1")
	want("explore, no bug", code, 0, out, errs, "no violation in 20 schedules")

	code, out, errs = cli("toy", "check", "relay", "--nodes", "3", "--hops", "4")
	want("check", code, 0, out, errs, "exhausted")
	code, out, errs = cli("toy", "check", "relay", "--nodes", "3", "--greedy")
	want("check, a bug", code, 3, out, errs, "mutual exclusion", "--path")

	code, log, errs := cli("toy", "relay", "--nodes", "3", "--greedy", "--seed", "2", "--format", "json")
	want("a log of a bad run", code, 3, "", errs)
	f := writeLog(t, "relay.ndjson", strings.Split(strings.TrimSpace(log), "\n"))
	code, out, errs = cli("render", "--from", f, "--format", "mermaid")
	want("render", code, 0, out, errs, "sequenceDiagram", "TOKEN")
	code, out, errs = cli("check", "--from", f)
	want("check --from", code, 3, out, errs, "✗ mutual exclusion", "checked")
}
