// Package clitest runs ringlab commands in-process for tests, as main runs
// them: the commands prepared by cliutil (usage errors are exit 2, a group
// refuses an unknown subcommand), output to the writers given, and the error
// returned instead of exiting, for cliutil.Code to map to the exit code.
package clitest

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// Run runs the command line args (args[0] is the program's name) on an app
// made of cmds.
func Run(ctx context.Context, cmds []*cli.Command, stdout, stderr io.Writer, args []string) error {
	cliutil.Prepare(cmds)
	app := &cli.App{Name: "ringlab", Commands: cmds, Writer: stdout, ErrWriter: stderr,
		ExitErrHandler: func(*cli.Context, error) {}}
	return app.RunContext(ctx, args)
}
