// Package mutex holds the `ringlab mutex` command and its algorithms.
package mutex

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `mutex` command tree.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "mutex",
		Usage:     "not built yet",
		UsageText: "ringlab mutex",
		Action:    cliutil.NotBuilt("mutex"),
	}
}
