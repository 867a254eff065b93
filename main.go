// Command ringlab is a laboratory for concurrency and distributed algorithms:
// goroutines and channels, mutual exclusion, leader election, and the
// concurrency chapter's exercises, each runnable, replayable and checked.
//
// main only assembles the four areas' commands, holds a signal-aware context,
// and maps errors to exit codes (engine/cliutil) in one place.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"ringlab/election"
	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/grade"
	"ringlab/engine/scaffold"
	"ringlab/engine/serve"
	"ringlab/engine/trace"
	"ringlab/exercises"
	"ringlab/mutex"
	"ringlab/quiz"
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
	return rcli.Exit("ringlab", newApp(stdout, stderr, areas...).RunContext(ctx, args), stderr)
}

// areas are the areas made from lists of Algorithm values: each gets its
// algorithms' run, explore and check commands from the list alone.
func areas() []rcli.Area { return []rcli.Area{mutex.Area(), election.Area()} }

// newApp is the whole command tree, with the areas given.
func newApp(stdout, stderr io.Writer, areas ...rcli.Area) *cli.App {
	cmds := []*cli.Command{
		ring.Command(),
	}
	for _, a := range areas {
		cmds = append(cmds, a.Command())
	}
	cmds = append(cmds,
		exercises.Command(),
		quiz.Command(),
		rcli.AMQPCommand(rcli.NodeAreas(areas)), rcli.NodeCommand(rcli.NodeAreas(areas)),
		rcli.RenderCommand(ring.LogDialect()),
		rcli.CheckCommand(stdout, stderr, areas, []trace.Dialect{ring.LogDialect()}),
		serve.Command(),
		scaffold.Command(), grade.Command(),
		rcli.VersionCommand(),
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
// the broker: every area with node runs (Area.Node).
func nodeAreas() []rcli.NodeArea { return rcli.NodeAreas(areas()) }
