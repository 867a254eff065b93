// Package blockingqueue is the `blocking-queue` lesson of the concurrency chapter (SPEC.md §4).
package blockingqueue

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises blocking-queue` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "blocking-queue",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises blocking-queue"),
	}
}
