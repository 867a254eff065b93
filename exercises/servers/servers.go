// Package servers is the `servers` lesson of the concurrency chapter (SPEC.md §4).
package servers

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises servers` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "servers",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises servers"),
	}
}
