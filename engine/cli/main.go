package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/run"
	"ringlab/engine/serve"
)

// Main is the whole of a program made of the algorithms algs: its main is
//
//	func main() { os.Exit(cli.Main(myalgo.Algorithm())) }
//
// It runs the command line in os.Args with a context that SIGINT and
// SIGTERM cancel, writes to os.Stdout and os.Stderr, and returns the
// process exit code (0 ok, 1 internal error, 2 bad input, 3 a property
// violated, 4 no termination, 130 interrupted). The commands are App's.
func Main(algs ...engine.Algorithm) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, os.Args, os.Stdout, os.Stderr, algs...)
}

// Run executes one command line args of a program made of algs (args[0]
// names the program, as os.Args[0] does: its base name, without ".exe", is
// the name its help and replay lines give) and returns the exit code, as
// Main does; an error is written to stderr as "PROG: error". It is Main
// with its context and writers given, for tests.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, algs ...engine.Algorithm) int {
	prog := "main"
	if len(args) > 0 {
		prog = strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	} else {
		args = []string{prog}
	}
	app, err := App(prog, stdout, stderr, algs...)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	return Exit(prog, err, stderr)
}

// Exit is the exit code of a program's command that returned err
// (cliutil.Code), which it writes to stderr as the program's last line,
// "PROG: error", or "PROG: interrupted" for Ctrl-C.
func Exit(prog string, err error, stderr io.Writer) int {
	code := cliutil.Code(err)
	switch {
	case err == nil:
	case code == cliutil.ExitInterrupted:
		fmt.Fprintf(stderr, "%s: interrupted\n", prog)
	default:
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
	}
	return code
}

// reserved are the program's own commands, which no algorithm may be
// named after.
var reserved = []string{"explore", "check", "render", "serve", "node", "amqp", "version", "help", "h"}

// App is the command tree of a program named prog made of the algorithms
// algs, writing to stdout and stderr:
//
//	PROG ALGO [flags]              run it: --runtime sim|live|amqp, --seed,
//	                               faults (--crash, --drop, ...), --format, --serve
//	PROG explore ALGO [flags]      many seeded schedules, the shortest violating one
//	PROG check ALGO [flags]        every state of a small system (--path replays one)
//	PROG check --from LOG          judge a saved log by rebuilding the run that wrote it
//	PROG render --from LOG         redraw a log (text, json, mermaid, svg, ...)
//	PROG serve --from LOG          show logs in the browser
//	PROG node --algo ALGO --index I   one node per process over RabbitMQ
//	PROG amqp setup|teardown       the broker topology those processes share
//	PROG version
//
// These are the commands ringlab gives its own areas (an Area named prog,
// its algorithms' commands at the top), so every replay line a run writes
// names prog and runs again in this program. An error is a mistake in
// algs: no algorithm, an algorithm without a name or Build, two of one
// name, or one named after a command above.
func App(prog string, stdout, stderr io.Writer, algs ...engine.Algorithm) (*ucli.App, error) {
	if err := validate(algs); err != nil {
		return nil, err
	}
	area := Area{Name: prog, Algorithms: algs, Node: programNodeRuns(algs)}
	nodeAreas := NodeAreas([]Area{area})
	var cmds []*ucli.Command
	for _, cmd := range area.Command().Subcommands {
		if cmd.Name == "check" {
			programCheck(cmd, prog, area, nodeAreas, stdout, stderr)
		}
		cmds = append(cmds, cmd)
	}
	node, amqpCmd := NodeCommand(nodeAreas), AMQPCommand(nodeAreas)
	first := algs[0].Name
	node.UsageText = prog + " node --algo ALGORITHM --index I [--url URL] [--events FILE] [--initiator]\n\n" +
		"Example (after `" + prog + " amqp setup --algo " + first + "`, one process per node):\n" +
		"   " + prog + " node --algo " + first + " --index 1\n   " + prog + " node --algo " + first + " --index 2\n   ..."
	node.Description = "Each process prints its own node's lines. The initiator's process (node 1's, unless\n" +
		"another is started with --initiator and node 1's with --initiator=false) gives its node\n" +
		"the script's start, collects every node's reports, decides when the run is over, tells\n" +
		"the other processes, and prints the verdicts. The algorithm's parameters are at their\n" +
		"defaults, but for those the node command takes (--nodes, ...)."
	node.Flags = slices.DeleteFunc(node.Flags, func(f ucli.Flag) bool { // ringlab's areas' flags the algorithms do not take
		name := f.Names()[0]
		return slices.Contains(areaFlags, name) && !slices.Contains(area.Node.Flags, name)
	})
	for _, f := range node.Flags {
		if b, ok := f.(*ucli.BoolFlag); ok && b.Name == "initiator" {
			b.Usage = "this process gives its node the script's start, judges the run and prints the verdicts (default: true for --index 1, else false)"
		}
	}
	amqpCmd.Usage = "declare or delete the RabbitMQ topology that `" + prog + " node` processes share"
	amqpCmd.UsageText = prog + " amqp setup|teardown [flags]\n\nExample:\n   " + prog + " amqp setup --algo " + first
	for _, c := range append([]*ucli.Command{node}, amqpCmd.Subcommands...) {
		for _, f := range c.Flags {
			if s, ok := f.(*ucli.StringFlag); ok && s.Name == "algo" {
				s.Value, s.Usage = first, "the algorithm: one of "+strings.Join(area.Names(), ", ")
			}
		}
	}
	render, sv := RenderCommand(), serve.Command()
	render.UsageText = prog + " render --from FILE [--format " + strings.ReplaceAll(renderFormats, ", ", "|") + "] [--out FILE]\n\n" +
		"Example:\n   " + prog + " " + first + " --format json > run.ndjson\n   " + prog + " render --from run.ndjson --format mermaid --out run.mmd"
	sv.UsageText = prog + " serve [--addr 127.0.0.1:8080] [--from run.ndjson ...]\n\n" +
		"Example:\n   " + prog + " " + first + " --format json > run.ndjson\n   " + prog + " serve --from run.ndjson\n\n" +
		"Any run also takes --serve (run, then show it): " + prog + " " + first + " --serve"
	version := VersionCommand()
	version.Usage = "print the program's version and the Go toolchain it was built with"
	cmds = append(cmds, render, sv, node, amqpCmd, version)
	renameProgram(cmds, prog)
	cliutil.Prepare(cmds)
	return &ucli.App{
		Name:  prog,
		Usage: "run, explore and check " + strings.Join(area.Names(), ", "),
		Description: "Every algorithm runs on the simulator, on goroutines or over RabbitMQ, and is\n" +
			"explored, checked exhaustively and drawn by the same tools. Example:\n\n   " + prog + " " + first + " --seed 1",
		Commands:       cmds,
		Writer:         stdout,
		ErrWriter:      stderr,
		HideVersion:    true,
		ExitErrHandler: func(*ucli.Context, error) {}, // exit codes are mapped by Run, never by urfave/cli
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return &cliutil.ExitError{Code: cliutil.ExitUsage, Err: err}
		},
		Action: func(c *ucli.Context) error {
			if c.Args().Present() {
				return cliutil.Usagef("unknown command %q (see '%s --help')", c.Args().First(), prog)
			}
			return ucli.ShowAppHelp(c)
		},
	}, nil
}

// validate refuses a list of algorithms no program can be made of.
func validate(algs []engine.Algorithm) error {
	if len(algs) == 0 {
		return fmt.Errorf("no algorithm: give cli.Main at least one engine.Algorithm")
	}
	for i, a := range algs {
		switch {
		case a.Name == "" || strings.HasPrefix(a.Name, "-") || strings.ContainsAny(a.Name, " \t\n/"):
			return fmt.Errorf("algorithm %d: name %q is not a command name", i+1, a.Name)
		case a.Build == nil:
			return fmt.Errorf("algorithm %q has no Build", a.Name)
		case slices.Contains(reserved, a.Name):
			return fmt.Errorf("algorithm %q is named after a command of the program", a.Name)
		case slices.ContainsFunc(algs[:i], func(b engine.Algorithm) bool { return b.Name == a.Name }):
			return fmt.Errorf("two algorithms are named %q", a.Name)
		}
	}
	return nil
}

// programCheck makes the area's check group also `PROG check --from LOG`:
// with --from it judges saved logs, and with an algorithm's name it is
// that algorithm's exhaustive check.
func programCheck(cmd *ucli.Command, prog string, area Area, nodeAreas []NodeArea, stdout, stderr io.Writer) {
	cmd.Usage = "exhaustive state-space search of an algorithm (check ALGO), or judge a saved log (check --from LOG)"
	cmd.UsageText = prog + " check ALGORITHM [flags]\n   " + prog + " check --from FILE [--from FILE2 ...] [--property P ...]\n\n" +
		"Example:\n   " + prog + " check " + area.Algorithms[0].Name + "\n" +
		"   " + prog + " " + area.Algorithms[0].Name + " --seed 1 --format json > run.ndjson\n" +
		"   " + prog + " check --from run.ndjson"
	cmd.Flags = fromFlags()
	logs := programNodeLogs(prog, area, nodeAreas)
	cmd.Action = func(c *ucli.Context) error {
		if c.Args().Present() {
			return cliutil.Usagef("check: unknown algorithm %q (want one of %s, or --from FILE)", c.Args().First(), strings.Join(area.Names(), ", "))
		}
		if !c.IsSet("from") {
			return ucli.ShowSubcommandHelp(c)
		}
		return checkFrom(c, logs, nil, stderr, func(log *run.Log) (bool, error) {
			args, err := SplitCommand(log.Replay)
			// The first word is the program's name as it was run; a
			// renamed binary still judges its logs.
			if err != nil || len(args) < 2 || !slices.Contains(area.Names(), args[1]) {
				return false, cliutil.FlagUsagef("from", "--from: the log was made by %q, not by a run of an algorithm %s can re-check (%s)", log.Replay, prog, strings.Join(area.Names(), ", "))
			}
			sys, opts, replay, err := rebuildProgram(c.Context, prog, area, args[1:])
			if err != nil {
				return false, err
			}
			log.Replay = replay // the line the run command writes, as a run of it prints
			opts.DryRun = dryRun(c)
			_, err = Judge(c.Context, sys, opts, log, c.StringSlice("property"), stdout, stderr)
			return true, err
		})
	}
}

// rebuildProgram is Area.Rebuild for a program whose algorithms' run
// commands are at its top: it reads args (ALGO and its flags) and builds
// the System, options and replay line that run had.
func rebuildProgram(ctx context.Context, prog string, area Area, args []string) (sys engine.System, opts Options, replay string, err error) {
	alg, _ := engine.Find(area.Algorithms, args[0])
	cmd := area.runCommand(alg)
	cmd.Action = func(c *ucli.Context) (err error) {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		sys, opts, err = build(c, alg)
		replay = Replay(c, opts.Seed)
		return err
	}
	app := &ucli.App{Name: prog, Commands: []*ucli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard,
		ExitErrHandler: func(*ucli.Context, error) {}}
	cliutil.Prepare(app.Commands)
	err = app.RunContext(ctx, append([]string{prog}, args...))
	return sys, opts, replay, err
}

// programNodeLogs reads the command line of a `PROG node` process (its
// log's header) into the one-process run it was part of, "PROG ALGO
// --nodes N --runtime amqp --seed 0", as NodeLogs does for ringlab's.
func programNodeLogs(prog string, area Area, nodeAreas []NodeArea) func(string) (string, int, error) {
	return func(replay string) (string, int, error) {
		words, err := SplitCommand(replay)
		if err != nil {
			return "", 0, err
		}
		if len(words) < 2 || words[1] != "node" {
			return "", 0, fmt.Errorf("not a %s node command", prog)
		}
		words[0] = "ringlab"
		if !slices.Contains(words, "--algo") { // the default, which nodeRun takes to be ringlab's
			words = append(words, "--algo", area.Algorithms[0].Name)
		}
		for i := range words {
			words[i] = quote(words[i])
		}
		line, index, err := nodeRun(nodeAreas, strings.Join(words, " "))
		if err != nil {
			return "", 0, err
		}
		return prog + strings.TrimPrefix(line, "ringlab "+prog), index, nil
	}
}

// programNodeRuns runs the algorithms one node per process: a node
// process passes on --nodes (and --requests, --ids) where the algorithms
// take it, and builds the run the algorithm's own command would, with
// every other parameter at its default.
func programNodeRuns(algs []engine.Algorithm) *NodeRuns {
	var flags []string
	for _, f := range areaFlags {
		if slices.ContainsFunc(algs, func(a engine.Algorithm) bool { _, ok := a.Param(f); return ok }) {
			flags = append(flags, f)
		}
	}
	return &NodeRuns{
		Flags: flags,
		Spec: func(name string, args []string, _ int, _ bool) (engine.System, error) {
			alg, ok := engine.Find(algs, name)
			if !ok {
				return engine.System{}, cliutil.Usagef("--algo: unknown algorithm %q", name)
			}
			cmd := &ucli.Command{Name: alg.Name, Flags: ParamFlags(alg)}
			return cliutil.Build(cmd, args, func(c *ucli.Context) (engine.System, error) {
				return Build(c, alg, engine.Env{Runtime: "amqp", MaxDelay: 1})
			})
		},
	}
}

// renameProgram makes the help of cmds, written for ringlab's own tree
// ("ringlab AREA ALGO", "ringlab render"), name the program: its
// algorithms' commands sit at its top, not under an area.
func renameProgram(cmds []*ucli.Command, prog string) {
	for _, c := range cmds {
		c.UsageText = strings.ReplaceAll(c.UsageText, "ringlab "+prog+" ", prog+" ")
		c.UsageText = strings.ReplaceAll(c.UsageText, "ringlab ", prog+" ")
		renameProgram(c.Subcommands, prog)
	}
}
