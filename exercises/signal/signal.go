// Package signal is the `signal` lesson of the concurrency chapter (SPEC.md §4).
package signal

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises signal` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "signal",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises signal"),
	}
}
