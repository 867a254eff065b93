package explore_test

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/explore"
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

// An Explorer is the scheduler's seat: At replays a path and shows what
// may happen next, and Analyze tells, for every state, whether a
// violation is still avoidable from it.
func ExampleExplorer() {
	cfg := statespace.Config{
		System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &polite{i: i}, nil }, Script: []node.Action{
			{Node: 1, Cmd: node.CmdRequest},
			{Node: 2, Cmd: node.CmdRequest},
		}},
		Checks: func() []check.Property { return []check.Property{&check.MutualExclusion{}} },
	}
	x, err := explore.NewExplorer(cfg, func(i int) string { return fmt.Sprintf("P%d", i) })
	if err != nil {
		panic(err)
	}
	path, err := statespace.ParsePath("c1,c2", 2)
	if err != nil {
		panic(err)
	}
	v, err := x.At(path)
	if err != nil {
		panic(err)
	}
	fates, err := x.Analyze(context.Background(), 0)
	if err != nil {
		panic(err)
	}
	start, _ := fates.Fate(v.Keys[0])
	here, _ := fates.Fate(v.Key)
	fmt.Printf("%d states; from the start a violation is %v, after c1,c2 it is %v\n", fates.States, start, here)
	for _, s := range v.Steps {
		fmt.Printf("%s: %s\n", s.Label, s.Words)
	}
	// Output:
	// 20 states; from the start a violation is reachable, after c1,c2 it is unavoidable
	// d1-2: deliver ASK from P1 to P2
	// d2-1: deliver ASK from P2 to P1
}
