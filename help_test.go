package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/internal/racebuild"
)

// helpCommand is one command of the tree and the command line that reaches it.
type helpCommand struct {
	path []string // "ringlab", "mutex", "central"
	cmd  *cli.Command
}

// commandTree lists every command of the app, depth first.
func commandTree() []helpCommand {
	var all []helpCommand
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Name == "help" {
				continue
			}
			p := append(append([]string(nil), path...), c.Name)
			all = append(all, helpCommand{p, c})
			walk(p, c.Subcommands)
		}
	}
	walk([]string{"ringlab"}, newApp(nil, nil, areas()...).Commands)
	return all
}

// flagLine matches a flag's line in a help text: its names, the
// placeholder if it takes a value, and its usage.
var flagLine = regexp.MustCompile(`^\s+(--[a-z0-9-]+)(?:, -[a-z])?(?: ([^\s]+))?\s{2,}(.*)$`)

// TestHelpText: every command's help says each default once, names its
// flags' values by placeholders (not by an example value), and every
// command has a help.
func TestHelpText(t *testing.T) {
	tree := commandTree()
	if len(tree) < 60 {
		t.Fatalf("walked only %d commands; is the walk broken?", len(tree))
	}
	digit := regexp.MustCompile(`[0-9]`)
	for _, hc := range tree {
		code, out, errs := runCLI(t, t.Context(), append(hc.path[1:], "--help")...)
		if code != 0 || out == "" {
			t.Errorf("%s --help: exit %d, %q", strings.Join(hc.path, " "), code, errs)
			continue
		}
		for _, line := range strings.Split(out, "\n") {
			m := flagLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if strings.Count(line, "(default") > 1 {
				t.Errorf("%s: %s says its default twice:\n%s", strings.Join(hc.path, " "), m[1], line)
			}
			if m[2] != "" && digit.MatchString(m[2]) {
				t.Errorf("%s: %s shows an example value %q where its placeholder goes:\n%s", strings.Join(hc.path, " "), m[1], m[2], line)
			}
		}
	}
}

// flagSamples are values of flags whose help shows no default value (or
// a default in words) to try them with; every other flag is tried with the
// default its help shows.
var flagSamples = map[string]string{
	"ids": "5,3,7,1,4", "index": "1", "initiators": "1", "schedule": "0:0", "path": "c2",
	"crash": "1@5", "partition": "1@1-2", "slow": "1+1@1-2", "runtime": "live",
	"nodes": "3", "requests": "2", "quorum": "2", "reply-timeout": "10", "coord-timeout": "10",
	"lang": "pt", "seed": "1", "layout-seed": "1", "message": "abc", "restart": "1@9",
	"scenario": "chapter", "graph": "1-2,2-3,3-1", "property": "termination",
	"dir": "mylock", "module": "example.com/my-lock", "ringlab": ".", "points": "examples/assignment/points",
	"goal": "messages-on-a-link", "from-path": "",
}

// flagContext gives the flags a flag applies with; an error naming one of
// them refuses the flag as much as one naming the flag itself.
var flagContext = map[string][]string{
	"tick": {"--runtime", "live"}, "scheduler": {"--runtime", "live"}, "url": {"--runtime", "amqp"}, "restart": {"--crash", "1@5"},
	"layout-seed": {"--layout", "random"},
}

// TestHelpListsOnlyAcceptedFlags: every flag a command's help lists is
// accepted by that command (with the default its help shows, or a sample
// value): no command lists a flag it refuses whatever its value.
func TestHelpListsOnlyAcceptedFlags(t *testing.T) {
	dir := t.TempDir()
	_, lines, _ := logOf(t, []string{"election", "ring", "--seed", "1"})
	logFile := writeLog(t, "run.ndjson", lines)
	tried := 0
	for _, hc := range commandTree() {
		if len(hc.cmd.Subcommands) > 0 || hc.cmd.Action == nil {
			continue
		}
		for _, f := range hc.cmd.Flags {
			df, ok := f.(cli.DocGenerationFlag)
			if !ok || f.Names()[0] == "help" {
				continue
			}
			if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
				continue
			}
			name := f.Names()[0]
			var args []string
			switch v, sample := flagSamples[name]; {
			case name == "from":
				args = []string{"--from", logFile}
			case name == "events" || name == "out":
				args = []string{"--" + name, dir + "/" + name}
			case sample:
				args = []string{"--" + name, v}
			case !df.TakesValue():
				args = []string{"--" + name + "=" + df.GetValue()}
			default:
				def := df.GetDefaultText()
				if def == "" {
					t.Errorf("%s: --%s shows no default and has no sample value in flagSamples", strings.Join(hc.path, " "), name)
					continue
				}
				args = []string{"--" + name, strings.Trim(def, `"`)}
			}
			ctxFlags := flagContext[name]
			if name == "layout-seed" && !slices.ContainsFunc(hc.cmd.Flags, func(f cli.Flag) bool { return f.Names()[0] == "layout" }) {
				ctxFlags = []string{"--topology", "random"} // yoyo
			}
			if hc.path[1] == "node" && name != "algo" {
				ctxFlags = []string{"--algo", nodeAlgoFor(name)} // the node command's flags belong to an algorithm
			}
			if name != "from" && slices.ContainsFunc(hc.cmd.Flags, func(f cli.Flag) bool { return f.Names()[0] == "from" }) {
				ctxFlags = append(ctxFlags, "--from", logFile) // the commands that read a log need one
			}
			args = append(args, ctxFlags...)
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			var out, errs bytes.Buffer
			app := rcli.DryRun(newApp(&out, &errs, areas()...))
			if racebuild.Enabled && hc.path[1] == "exercises" {
				flagsOnly(app.Commands)
			}
			full := append(append([]string(nil), hc.path...), args...)
			err := app.RunContext(ctx, full)
			tried++
			if cliutil.Code(err) != cliutil.ExitUsage {
				continue
			}
			for _, a := range args {
				if strings.HasPrefix(a, "--") && strings.Contains(err.Error(), strings.SplitN(a, "=", 2)[0]) {
					t.Errorf("%s: lists --%s in its help but refuses it: %v", strings.Join(full, " "), name, err)
					break
				}
			}
		}
	}
	if tried < 300 {
		t.Fatalf("tried only %d flags; is the walk broken?", tried)
	}
	t.Logf("%d flags tried", tried)
}

// nodeAlgoFor is an algorithm of `ringlab node` that takes the flag name.
func nodeAlgoFor(name string) string {
	if name == "requests" {
		return "mutex/central"
	}
	return "ring"
}
