package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
)

// plainNode is a node with Step alone: no Clone, no AppendKey.
type plainNode struct{ node.Node }

// looseBaton is baton with any number of nodes, and with --plain its
// nodes are plainNodes, as a student's node that skipped node.Snapshot.
func looseBaton() engine.Algorithm {
	alg := batonAlgorithm()
	alg.Params = append([]engine.Param(nil), alg.Params...)
	alg.Params[0].Check = nil
	alg.Params = append(alg.Params, engine.Param{Name: "plain", Default: false}, engine.Param{Name: "promise", Default: false})
	build := alg.Build
	alg.Build = func(p engine.Params, env engine.Env) (engine.System, error) {
		sys, err := build(p, env)
		if p.Bool("promise") { // something for --liveness to judge
			sys.Properties = append(slices.Clone(sys.Properties), newGranted())
		}
		if factory := sys.Factory; p.Bool("plain") {
			sys.Factory = func(i int) (node.Node, error) {
				nd, err := factory(i)
				return plainNode{nd}, err
			}
		}
		return sys, err
	}
	return alg
}

// TestSearchFlagsRefusedOneByOne: bad input to check and vet exits 2 with
// one line that names the flag at fault, and only it, before any work:
// the context is cancelled already (else --serve, which ignored
// --liveness and --goal, would serve until Ctrl-C).
func TestSearchFlagsRefusedOneByOne(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		args    []string
		flag    string
		want    string
		notWant string
	}{
		{[]string{"check", "baton", "--max-depth", "-1"}, "max-depth", "--max-depth must not be negative", "--max-states"},
		{[]string{"check", "baton", "--max-states", "-1"}, "max-states", "--max-states must not be negative", "--max-depth"},
		{[]string{"check", "baton", "--timeout", "-1s"}, "timeout", "--timeout must not be negative", "--max-depth"},
		{[]string{"check", "baton", "--crashes", "9"}, "crashes", "--crashes must be between 0 and 8, got 9", "--drops"},
		{[]string{"check", "baton", "--drops", "-1"}, "drops", "--drops must be between 0 and 8, got -1", "--crashes"},
		{[]string{"check", "baton", "--nodes", "100"}, "nodes", "--nodes 100: an exhaustive check takes at most 64 nodes", ""},
		{[]string{"vet", "baton", "--nodes", "1024"}, "nodes", "--nodes 1024: vet takes at most 64 nodes", ""},
		{[]string{"check", "baton", "--property", "mutual-exclusion", "--property", "termination"}, "property",
			"--property is given 2 times (mutual-exclusion, termination): a check looks for one property", ""},
		{[]string{"check", "baton", "--goal", "messages-on-a-link", "--goal", "messages-on-a-link"}, "goal", "--goal is given 2 times", ""},
		{[]string{"explore", "baton", "--property", "termination", "--property", "mutual-exclusion"}, "property", "--property is given 2 times", ""},
		{[]string{"check", "baton", "--serve", "--addr", "127.0.0.1:0", "--liveness"}, "liveness", "--serve with --liveness: the page judges no liveness", ""},
		{[]string{"check", "baton", "--serve", "--addr", "127.0.0.1:0", "--goal", "messages-on-a-link"}, "goal", "--serve with --goal: the page searches for no goal", ""},
		{[]string{"check", "baton", "--serve", "--addr", "127.0.0.1:0", "--explore-states", "-1"}, "explore-states", "--explore-states must not be negative", "--explore-time"},
		{[]string{"check", "baton", "--serve", "--addr", "127.0.0.1:0", "--explore-time", "0s"}, "explore-time", "--explore-time must be positive, got 0s", "--explore-states"},
	} {
		var out, errb bytes.Buffer
		err := runErr(ctx, append([]string{"relayer"}, c.args...), &out, &errb, looseBaton())
		ue, _ := err.(*cliutil.UsageError)
		if cliutil.Code(err) != cliutil.ExitUsage || ue == nil || ue.Flag != c.flag || !strings.Contains(err.Error(), c.want) ||
			c.notWant != "" && strings.Contains(err.Error(), c.notWant) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v (exit %d, %T); want exit 2 naming --%s: %q", c.args, err, cliutil.Code(err), err, c.flag, c.want)
		}
		if out.Len() > 0 {
			t.Errorf("%v: ran before refusing:\n%s", c.args, out.String())
		}
	}
}

// TestPlainNodeChecked: a node without Clone and AppendKey is checked
// and vetted by the copy and key the engine derives from its value, with
// the verdicts and counts of the node's own methods (#33 refused it).
func TestPlainNodeChecked(t *testing.T) {
	for _, cmd := range []string{"check", "vet"} {
		var outs [2]string
		for k, args := range [][]string{{"relayer", cmd, "baton"}, {"relayer", cmd, "baton", "--plain"}} {
			var out, errb bytes.Buffer
			if err := runErr(context.Background(), args, &out, &errb, looseBaton()); err != nil {
				t.Fatalf("%v: %v (exit %d)\n%s", args, err, cliutil.Code(err), errb.String())
			}
			for line := range strings.Lines(out.String()) {
				if !strings.HasPrefix(line, "time:") { // the one line that differs run to run
					outs[k] += line
				}
			}
		}
		if outs[0] != outs[1] || outs[0] == "" {
			t.Errorf("%s baton, by its own methods:\n%s\nand derived (--plain):\n%s", cmd, outs[0], outs[1])
		}
	}
}

// funcNode holds a func: the engine can neither copy nor compare it.
type funcNode struct {
	plainNode
	onGrant func()
}

// TestFuncFieldRefused: check and vet refuse a node that holds a func
// before they search, naming its type and field, with exit 1 (a node
// that breaks the engine's contract; no flag would mend it).
func TestFuncFieldRefused(t *testing.T) {
	alg := looseBaton()
	build := alg.Build
	alg.Build = func(p engine.Params, env engine.Env) (engine.System, error) {
		sys, err := build(p, env)
		factory := sys.Factory
		sys.Factory = func(i int) (node.Node, error) {
			nd, err := factory(i)
			return &funcNode{plainNode: plainNode{nd}}, err
		}
		return sys, err
	}
	for _, cmd := range []string{"check", "vet"} {
		var out, errb bytes.Buffer
		err := runErr(context.Background(), []string{"relayer", cmd, "baton"}, &out, &errb, alg)
		want := "the state of *cli.funcNode cannot be copied or compared: cli.funcNode.onGrant: func values cannot be copied or compared"
		if cliutil.Code(err) != cliutil.ExitInternal || err == nil || !strings.Contains(err.Error(), want) || out.Len() > 0 {
			t.Errorf("%s: %v (exit %d), want exit 1 saying %q; out:\n%s", cmd, err, cliutil.Code(err), want, out.String())
		}
	}
}

// TestSearchHelpSaysTheNodeBound: --nodes of check and vet says that they
// take at most 64, a run's --nodes says nothing of it.
func TestSearchHelpSaysTheNodeBound(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{{[]string{"check", "baton"}, true}, {[]string{"vet", "baton"}, true}, {[]string{"baton"}, false}} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), append(append([]string{"relayer"}, c.args...), "--help"), &out, &errb, looseBaton())
		var nodes string
		for line := range strings.Lines(out.String()) {
			if strings.Contains(line, "--nodes") {
				nodes = line
			}
		}
		if code != 0 || nodes == "" || strings.Contains(nodes, "takes at most 64") != c.want {
			t.Errorf("%v --help (exit %d): --nodes line %q, want the bound of 64 said: %v", c.args, code, nodes, c.want)
		}
	}
}

// runErr runs a program's command line as Run does and returns the
// command's error itself, to read which flag it names.
func runErr(ctx context.Context, args []string, stdout, stderr *bytes.Buffer, algs ...engine.Algorithm) error {
	app, err := App(strings.TrimSuffix(args[0], ".exe"), stdout, stderr, algs...)
	if err != nil {
		return err
	}
	return app.RunContext(ctx, args)
}

// TestOpenCommandIsServed: the "in the browser" line of a check with
// --liveness that finds a safety violation leaves --liveness out, which
// --serve refuses, and runs (to the refusal of nothing: it serves until
// the cancel).
func TestOpenCommandIsServed(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"relayer", "check", "baton", "--grab", "--promise", "--liveness"}, &out, &errb, looseBaton())
	var open string
	for line := range strings.Lines(out.String()) {
		if o, ok := strings.CutPrefix(line, "in the browser: "); ok {
			open = strings.TrimSpace(o)
		}
	}
	if code != cliutil.ExitViolation || open == "" || strings.Contains(open, "--liveness") || !strings.Contains(open, " --serve --path ") {
		t.Fatalf("exit %d, in the browser: %q; want exit 3 and a --serve line without --liveness\n%s%s", code, open, out.String(), errb.String())
	}
	args, err := SplitCommand(open)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := runErr(ctx, append(append([]string{}, args...), "--addr", "127.0.0.1:0"), &out, &errb, looseBaton()); cliutil.Code(err) == cliutil.ExitUsage {
		t.Errorf("%q is refused: %v", open, err)
	}
}
