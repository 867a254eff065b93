package node_test

import (
	"fmt"

	"ringlab/engine/node"
)

// Ping is a message of the example protocol.
type Ping struct{ N int }

func (Ping) Type() string { return "PING" }

// pinger answers every PING it receives with the next number, up to 3; the
// node told to start sends the first.
type pinger struct{ self int }

func (p *pinger) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		if in.Cmd == node.CmdStart {
			out.Send(3-p.self, Ping{N: 1})
		}
	case node.InMsg:
		n := in.Msg.(Ping).N
		out.Note("got %d", n)
		if n < 3 {
			out.Send(in.From, Ping{N: n + 1})
		}
		out.Done = true
	}
}

// A node is a state machine: Step takes one input and appends what it does
// to out, sending nothing itself. Here the test is the runtime: it hands
// each message sent to its receiver, as a runtime would.
func Example() {
	nodes := map[int]node.Node{1: &pinger{self: 1}, 2: &pinger{self: 2}}
	var out node.Output
	nodes[1].Step(node.Input{Kind: node.InCmd, Cmd: node.CmdStart}, &out)
	from := 1
	for len(out.Sends) > 0 {
		s := out.Sends[0]
		fmt.Printf("node %d sends %s%+v to node %d\n", from, s.Msg.Type(), s.Msg, s.To)
		out.Reset()
		nodes[s.To].Step(node.Input{Kind: node.InMsg, From: from, Msg: s.Msg}, &out)
		fmt.Printf("node %d: %s, done %v\n", s.To, out.Events[0].Note, out.Done)
		from = s.To
	}
	// Output:
	// node 1 sends PING{N:1} to node 2
	// node 2: got 1, done true
	// node 2 sends PING{N:2} to node 1
	// node 1: got 2, done true
	// node 1 sends PING{N:3} to node 2
	// node 2: got 3, done true
}
