package nodetest

import "ringlab/engine/node"

// Args records the parameter (Input.Arg) of every command each node is
// given, so a runtime's test can check that an Action's Arg reaches the
// node. Node i writes only Got[i-1]; read it after the run has returned.
type Args struct {
	Got [][]int
}

// NewArgs returns the record of a run of n nodes.
func NewArgs(n int) *Args { return &Args{Got: make([][]int, n)} }

// Factory builds node i, which records its commands' Args and notes each
// one (the event React answers); every node is always Done.
func (a *Args) Factory() node.Factory {
	return func(i int) (node.Node, error) { return &argNode{self: i, a: a}, nil }
}

type argNode struct {
	self int
	a    *Args
}

func (n *argNode) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && in.Cmd != node.CmdRecover {
		n.a.Got[n.self-1] = append(n.a.Got[n.self-1], in.Arg)
		out.NoteText("command")
	}
	out.Done = true
}

// ArgScript and ArgReact make a run of 3 nodes in which node 1 gets Arg
// 115 at t=0, node 2 Arg 110 at t=2 (both scripted), and node 3 Arg 7 in
// answer to node 1's note: ArgWant is what each node records.
func ArgScript() []node.Action {
	return []node.Action{{At: 0, Node: 1, Cmd: "go", Arg: 115}, {At: 2, Node: 2, Cmd: "go", Arg: 110}}
}

// ArgWant is the Args each node of ArgScript's run records.
func ArgWant() [][]int { return [][]int{{115}, {110}, {7}} }

// ArgReact answers node 1's note with Arg 7 for node 3, one tick later.
func ArgReact(i int, ev node.Event, _ int64) []node.Action {
	if i == 1 && ev.Kind == node.EvNote {
		return []node.Action{{At: 1, Node: 3, Cmd: "go", Arg: 7}}
	}
	return nil
}
