// Command twophase runs, explores and checks two-phase commit with every
// ringlab tool: `twophase --help` lists them.
package main

import (
	"os"

	"example.com/ringlab-examples/twophase"
	"ringlab/engine/cli"
)

func main() { os.Exit(cli.Main(twophase.Algorithm())) }
