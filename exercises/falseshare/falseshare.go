// Package falseshare is the `false-sharing` lesson of the concurrency chapter (SPEC.md §4).
package falseshare

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises false-sharing` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "false-sharing",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises false-sharing"),
	}
}
