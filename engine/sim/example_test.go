package sim_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/sim"
)

// Token is the message of the example: a token with a hop count.
type Token struct{ Hops int }

func (Token) Type() string { return "TOKEN" }

// relay passes the token to the next node of a ring of n until it has made
// hops hops; a node is done once the token has passed it for good.
type relay struct{ self, n, hops int }

func (r *relay) Step(in node.Input, out *node.Output) {
	next := r.self%r.n + 1
	switch in.Kind {
	case node.InCmd:
		out.Send(next, Token{Hops: 1})
	case node.InMsg:
		t := in.Msg.(Token)
		if t.Hops < r.hops {
			out.Send(next, Token{Hops: t.Hops + 1})
		}
		out.Done = t.Hops+r.n > r.hops // the token will not come back
	}
}

// A Runtime runs a System's nodes on one goroutine in virtual time: the
// same seed gives the same run on any machine, so its figures can be
// printed and checked. Here a token makes ten hops around a ring of four
// nodes started by node 1, each hop taking 1 to 3 ticks.
func ExampleRuntime() {
	const n, hops = 4, 10
	sys := engine.System{
		Nodes:   n,
		Factory: func(i int) (node.Node, error) { return &relay{self: i, n: n, hops: hops}, nil },
		Script:  []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
	}
	res, err := sim.Runtime{Seed: 7, Delay: sim.Delay{Min: 1, Max: 3}}.Run(context.Background(), sys, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v at t=%d after %d steps: %d messages %v\n", res.End, res.Now, res.Steps, res.Messages, res.ByType)
	// Output:
	// quiescent at t=20 after 11 steps: 10 messages map[TOKEN:10]
}
