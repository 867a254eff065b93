// Package concmap is the `concurrent-map` lesson of the concurrency chapter (SPEC.md §4).
package concmap

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises concurrent-map` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "concurrent-map",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises concurrent-map"),
	}
}
