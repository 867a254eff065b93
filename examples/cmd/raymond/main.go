// Command raymond runs, explores and checks Raymond's tree-based token
// algorithm with every ringlab tool: `raymond --help` lists them.
package main

import (
	"os"

	"example.com/ringlab-examples/raymond"
	"ringlab/engine/cli"
)

func main() { os.Exit(cli.Main(raymond.Algorithm())) }
