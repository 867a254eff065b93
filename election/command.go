// Package election holds the `ringlab election` command and its algorithms.
package election

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `election` command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "election",
		Usage:     "not built yet",
		UsageText: "ringlab election",
		Action:    cliutil.NotBuilt("election"),
	}
}
