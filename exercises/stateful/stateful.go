// Package stateful is the `stateful` lesson of the concurrency chapter (SPEC.md §4).
package stateful

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises stateful` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "stateful",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises stateful"),
	}
}
