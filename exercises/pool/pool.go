// Package pool is the `pool` lesson of the concurrency chapter (SPEC.md §4).
package pool

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises pool` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "pool",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises pool"),
	}
}
