// Package twolocks is the `two-locks` lesson of the concurrency chapter (SPEC.md §4).
package twolocks

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises two-locks` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "two-locks",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises two-locks"),
	}
}
