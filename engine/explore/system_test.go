package explore

import (
	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/statespace"
)

// collector is node 1 of a system counted by hand: it records the order
// in which the others' hellos reach it. Each other node, given its start
// command, sends it one. The engine derives its copy and key.
type collector struct {
	index int
	order []int
}

type hello struct{ From int }

func (hello) Type() string { return "HELLO" }

func (c *collector) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && c.index != 1 {
		out.Send(1, hello{c.index})
	}
	if in.Kind == node.InMsg && c.index == 1 {
		c.order = append(c.order, in.Msg.(hello).From)
	}
}

// collectors is the collector with k senders, each started once.
func collectors(k int) statespace.Config {
	sys := engine.System{Nodes: k + 1, Factory: func(i int) (node.Node, error) { return &collector{index: i}, nil }}
	for i := 2; i <= k+1; i++ {
		sys.Script = append(sys.Script, node.Action{Node: i, Cmd: node.CmdStart})
	}
	return statespace.Config{System: sys}
}
