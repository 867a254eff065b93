package cli_test

import (
	"context"
	"fmt"
	"os"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cli"
	"ringlab/engine/node"
)

// pingNode is the smallest algorithm: node 1 sends POKE to node 2, which is
// done when it has it.
type pingNode struct{ i int }

// Poke is ping's one message.
type Poke struct{}

func (Poke) Type() string { return "POKE" }

func (p *pingNode) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && p.i == 1 {
		out.Send(2, Poke{})
	}
	out.Done = true
}

// A program made of one algorithm: its main would be
// os.Exit(cli.Main(pingAlgorithm)). Run is Main with the context, the
// command line and the writers given.
func ExampleRun() {
	pingAlgorithm := engine.Algorithm{
		Name: "ping",
		Build: func(engine.Params, engine.Env) (engine.System, error) {
			return engine.System{
				Name: "ping", Nodes: 2,
				Factory:    func(i int) (node.Node, error) { return &pingNode{i: i}, nil },
				Messages:   []node.Msg{Poke{}},
				Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
				Properties: []check.Property{check.Termination{}},
			}, nil
		},
	}
	args := []string{"pinger", "ping", "--seed", "1", "--format", "none"}
	code := cli.Run(context.Background(), args, os.Stdout, os.Stdout, pingAlgorithm)
	fmt.Println("exit", code)
	// Output:
	// ping on sim, 2 nodes, seed 1: 2 steps, t=1
	// messages: 1 (POKE 1)
	// ✓ termination
	// replay: pinger ping --format none --seed 1
	// exit 0
}
