package statespace_test

import (
	"context"
	"fmt"
	"ringlab/engine"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
)

// Ask and OK are the messages of the example protocol.
type (
	Ask struct{}
	OK  struct{}
)

// Type names the message kind.
func (Ask) Type() string { return "ASK" }

// Type names the message kind.
func (OK) Type() string { return "OK" }

// polite is a broken mutual exclusion for two nodes: a node that wants the
// critical section asks the other, which says OK unless it is inside, and
// enters on the OK. Two nodes that ask at once both say OK.
//
// Its state is its struct: the search copies and compares it by value,
// with no Clone or AppendKey to write.
type polite struct {
	i         int
	wants, in bool
}

func (p *polite) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		p.wants = true
		out.Send(3-p.i, Ask{})
	case in.Kind == node.InMsg && in.Msg.Type() == "ASK" && !p.in:
		out.Send(in.From, OK{})
	case in.Kind == node.InMsg && in.Msg.Type() == "OK" && p.wants:
		p.in = true
		out.EnterCS()
	}
	out.Done = true
}

// Search tries every order in which the messages of a small system can
// be delivered, and returns a shortest path to a state that breaks a
// property. A path reads: c1 gives node 1 its command, d2-1 delivers the
// message at the head of the link from node 2 to node 1.
func ExampleSearch() {
	res, err := statespace.Search(context.Background(), statespace.Config{
		System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &polite{i: i}, nil }, Script: []node.Action{
			{Node: 1, Cmd: node.CmdRequest},
			{Node: 2, Cmd: node.CmdRequest},
		}},
		Checks: func() []check.Property { return []check.Property{&check.MutualExclusion{}} },
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %s\n", res.Violation.Property, res.Violation.Detail)
	fmt.Println("path:", statespace.FormatPath(res.Path))
	fmt.Printf("%d distinct states, %d explored\n", res.Distinct, res.Explored)
	// Output:
	// mutual exclusion: node 1 and node 2 are in the critical section at once (t=6)
	// path: c1,c2,d1-2,d2-1,d1-2,d2-1
	// 20 distinct states, 16 explored
}
