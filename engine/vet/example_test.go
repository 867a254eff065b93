package vet_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/vet"
)

// counter notes how many requests it has had, but its key forgets the
// count: the exhaustive checker would take the node after one request
// for the node before any, and never see it note "request 2".
type counter struct{ count int }

func (c *counter) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && in.Cmd == node.CmdRequest {
		c.count++
		out.Note("request %d", c.count)
	}
	out.Done = true
}

func (c *counter) Clone() node.Node          { d := *c; return &d }
func (c *counter) AppendKey(b []byte) []byte { return b } // the fix: node.AppendInt(b, c.count)

func Example() {
	alg := engine.Algorithm{Name: "counter", Build: func(engine.Params, engine.Env) (engine.System, error) {
		return engine.System{Name: "counter", Nodes: 1,
			Factory: func(int) (node.Node, error) { return &counter{}, nil },
			Script:  []node.Action{{Node: 1, Cmd: node.CmdRequest}, {Node: 1, Cmd: node.CmdRequest}},
		}, nil
	}}
	findings, err := vet.Check(context.Background(), alg, alg.Defaults())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	// Output:
	// key: node 1: AppendKey on command request: two states with key (empty) (&{count:0}, and &{count:1} reached by command request) behave differently: outputs [note "request 1"; done], and [note "request 2"; done]: the key leaves out a field that changes behaviour (field count)
}
