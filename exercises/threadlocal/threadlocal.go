// Package threadlocal is the `thread-local` lesson of the concurrency chapter (SPEC.md §4).
package threadlocal

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises thread-local` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "thread-local",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises thread-local"),
	}
}
