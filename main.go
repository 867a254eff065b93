// Command ringlab is a laboratory for concurrency and distributed algorithms:
// goroutines and channels, mutual exclusion, leader election, and the
// concurrency chapter's exercises, each runnable, replayable and checked.
//
// main only assembles the four areas' commands, holds a signal-aware context,
// and maps errors to exit codes (internal/cliutil) in one place.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/urfave/cli/v2"

	"ringlab/election"
	"ringlab/exercises"
	"ringlab/internal/cliutil"
	"ringlab/internal/serve"
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
	err := newApp(stdout, stderr).RunContext(ctx, args)
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

func newApp(stdout, stderr io.Writer) *cli.App {
	cmds := []*cli.Command{
		ring.Command(),
		mutex.Command(),
		election.Command(),
		exercises.Command(),
		amqpCommand(), nodeCommand(),
		renderCommand(),
		serve.Command(),
		versionCommand(),
	}
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
