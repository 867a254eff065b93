// Package hello is the `hello` lesson of the concurrency chapter (SPEC.md §4).
package hello

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
)

// Command returns the `exercises hello` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:   "hello",
		Usage:  "not built yet",
		Action: cliutil.NotBuilt("exercises hello"),
	}
}
