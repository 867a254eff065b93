// Package counter is the `counter` lesson of the concurrency chapter (SPEC.md §4).
package counter

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises counter` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "counter",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises counter"),
	}
}
