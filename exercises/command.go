// Package exercises holds the `ringlab exercises` command and its algorithms.
package exercises

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises` command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "exercises",
		Usage:     "not built yet",
		UsageText: "ringlab exercises",
		Action:    cliutil.NotBuilt("exercises"),
	}
}
