// Package join is the `join` lesson of the concurrency chapter (SPEC.md §4).
package join

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises join` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "join",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises join"),
	}
}
