// Command ringlab is a laboratory for concurrency and distributed algorithms:
// goroutines and channels, mutual exclusion, leader election, and the
// concurrency chapter's exercises, each runnable, replayable and checked.
//
// main only assembles the four areas' commands, holds a signal-aware context,
// and maps errors to exit codes (internal/cliutil) in one place.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"syscall"

	"github.com/urfave/cli/v2"

	"ringlab/election"
	"ringlab/exercises"
	rcli "ringlab/internal/cli"
	"ringlab/internal/cliutil"
	"ringlab/internal/runner"
	"ringlab/internal/serve"
	"ringlab/internal/trace"
	"ringlab/mutex"
	"ringlab/ring"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, stdout, stderr, areas())
}

// runWith is run with the areas given.
func runWith(ctx context.Context, args []string, stdout, stderr io.Writer, areas []rcli.Area) int {
	err := newApp(stdout, stderr, areas...).RunContext(ctx, args)
	code := cliutil.Code(err)
	if err != nil {
		if code == cliutil.ExitInterrupted {
			fmt.Fprintln(stderr, "ringlab: interrupted")
		} else {
			fmt.Fprintf(stderr, "ringlab: %v\n", err)
		}
	}
	return code
}

// areas are the areas made from lists of Algorithm values: each gets its
// algorithms' run, explore and check commands from the list alone.
func areas() []rcli.Area { return []rcli.Area{mutex.Area()} }

// newApp is the whole command tree, with the areas given.
func newApp(stdout, stderr io.Writer, areas ...rcli.Area) *cli.App {
	cmds := []*cli.Command{
		ring.Command(),
		election.Command(),
		exercises.Command(),
	}
	for _, a := range areas {
		cmds = append(cmds, a.Command())
	}
	cmds = append(cmds,
		runner.AMQPCommand(nodeAreas()), runner.NodeCommand(nodeAreas()),
		runner.RenderCommand(ring.LogDialect()),
		checkCommand(stdout, stderr, areas),
		serve.Command(),
		versionCommand(),
	)
	cliutil.Prepare(cmds)
	app := &cli.App{
		Name:  "ringlab",
		Usage: "a laboratory for concurrency and distributed algorithms",
		Description: "Run the capitalizing ring, mutual-exclusion and leader-election algorithms,\n" +
			"and the concurrency chapter's exercises. Example:\n\n   ringlab ring --delay 0 --seed 7",
		Commands:       cmds,
		Writer:         stdout,
		ErrWriter:      stderr,
		HideVersion:    true,
		ExitErrHandler: func(*cli.Context, error) {}, // exit codes are mapped in run, never by cli
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &cliutil.ExitError{Code: cliutil.ExitUsage, Err: err}
		},
		CommandNotFound: nil,
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return cliutil.Usagef("unknown command %q (see 'ringlab --help')", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	return app
}

// nodeAreas are the areas whose algorithms run one node per process over
// the broker; a bare --algo NAME is an election.
func nodeAreas() []runner.Area { return []runner.Area{election.NodeArea(), mutex.NodeArea()} }

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the ringlab version and the Go toolchain it was built with",
		UsageText: "ringlab version",
		Action: func(c *cli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			v := "(devel)"
			if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
				v = info.Main.Version
			}
			fmt.Fprintf(c.App.Writer, "ringlab %s %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

// checkCommand re-judges a saved run: the command line its log names
// rebuilds the run (its checkers, its figures) through the same command
// code, and the logged events take the place of the runtime.
func checkCommand(stdout, stderr io.Writer, areas []rcli.Area) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "run a saved NDJSON log through the checkers of the run that wrote it; exit 0, 3 or 4 as the run would",
		UsageText: "ringlab check --from FILE [--from FILE2 ...] [--property P ...]\n\n" +
			"Several files (one per process) are merged by their clocks; - reads standard input.\n" +
			"Example:\n   ringlab mutex ricart-agrawala --nodes 3 --seed 1 --format json > run.ndjson\n" +
			"   ringlab check --from run.ndjson --property mutual-exclusion",
		Flags: []cli.Flag{
			runner.RepeatedFlag("from", "an NDJSON log to read (`FILE`, or - for standard input; repeatable)"),
			&cli.StringSliceFlag{Name: "property", Usage: "check only this property, e.g. mutual-exclusion (repeatable; default: every property of the run)"},
			&cli.IntFlag{Name: "max-size", Value: runner.DefaultMaxLogMiB, Usage: "refuse logs check must hold in memory (several --from files, or one without a header line: a few times their size) past this many `MiB` in all; one log with its header is judged as it is read, whatever its size"},
		},
		Action: func(c *cli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			var srcs []runner.Source
			if !c.IsSet("from") {
				return cliutil.Usagef("--from FILE is required: the NDJSON log to check")
			}
			maxMiB := c.Int("max-size")
			if maxMiB < 1 || maxMiB > 1<<20 {
				return cliutil.Usagef("--max-size must be between 1 and %d MiB, got %d", 1<<20, maxMiB)
			}
			names := runner.Values(c, "from")
			var size int64
			for i, name := range names {
				if slices.Contains(names[:i], name) {
					return cliutil.Usagef("--from %s is given twice: its events would count twice", name)
				}
				if name == "-" {
					srcs = append(srcs, runner.Source{Name: "standard input", R: os.Stdin})
					continue
				}
				f, err := os.Open(name)
				if err != nil {
					return cliutil.Usagef("--from: %v", err)
				}
				defer f.Close()
				if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && len(names) > 1 { // one file streams
					if size += st.Size(); size > int64(maxMiB)<<20 {
						return cliutil.Usagef("--from %s: the logs are larger than --max-size %d MiB (reading takes a few times that in memory); raise --max-size if this machine has room", name, maxMiB)
					}
				}
				srcs = append(srcs, runner.Source{Name: name, R: f})
			}
			log, err := runner.ReadLog(c.Context, runner.ReadOptions{MaxBytes: int64(maxMiB) << 20, Areas: nodeAreas(), Dialects: []trace.Dialect{ring.LogDialect()}, Stream: true}, srcs...)
			if cliutil.Code(err) == cliutil.ExitInterrupted {
				fmt.Fprintf(stderr, "check: --from %v; nothing judged\n", err)
				return err
			}
			if err != nil {
				return cliutil.Usagef("--from %v", err)
			}
			args, err := runner.SplitCommand(log.Replay)
			if err != nil || len(args) < 3 || args[0] != "ringlab" ||
				!slices.Contains(rechecked(areas), args[1]) ||
				slices.Contains([]string{"explore", "compare", "quorum-probability", "check"}, args[2]) {
				return cliutil.Usagef("--from: the log was made by %q, not by a run of a mutex or election algorithm ringlab can re-check", log.Replay)
			}
			rec := &runner.Recorded{Log: log, Properties: c.StringSlice("property")}
			err = newApp(stdout, stderr, areas...).RunContext(runner.WithRecorded(c.Context, rec), args)
			var flagErr *cliutil.UsageError
			switch {
			case errors.As(err, &flagErr) && (flagErr.Flag == "property" || flagErr.Flag == "from"): // this command's own flags
				return err
			case cliutil.Code(err) == cliutil.ExitUsage:
				return cliutil.Usagef("the log's command %q: %v", log.Replay, err)
			case err == nil && !rec.Used():
				return cliutil.Usagef("--from: the log's command %q judges no run", log.Replay)
			}
			fmt.Fprintf(stderr, "checked %d logged events from %d file(s)\n", log.Read(), len(srcs))
			return err
		},
	}
}

// rechecked are the commands whose runs `ringlab check` judges again:
// mutex, election and every area of algorithm values.
func rechecked(areas []rcli.Area) []string {
	names := []string{"mutex", "election"}
	for _, a := range areas {
		names = append(names, a.Name)
	}
	return names
}
