package statespace

import (
	"fmt"
	"ringlab/engine"
	"slices"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// argSnap keeps the Arg of the last command it was given, in its key.
type argSnap struct{ last int }

func (n *argSnap) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd {
		n.last = in.Arg
	}
	out.Done = true
}
func (n *argSnap) Clone() node.Node          { c := *n; return &c }
func (n *argSnap) AppendKey(b []byte) []byte { return node.AppendInt(b, n.last) }
func argSnapFactory() node.Factory           { return func(int) (node.Node, error) { return &argSnap{}, nil } }
func argScript() []node.Action {
	return []node.Action{{Node: 1, Cmd: "go", Arg: 115}, {Node: 2, Cmd: "go", Arg: 110}, {Node: 2, Cmd: "go"}}
}

// TestActionArg: a scripted Action's Arg reaches the node's Input and its
// cmd event, and two commands that differ only in Arg stay two.
func TestActionArg(t *testing.T) {
	var cmds []string
	path := []Trans{{Kind: Command, Node: 1}, {Kind: Command, Node: 2}, {Kind: Command, Node: 2}}
	_, err := Replay(Config{System: engine.System{Nodes: 2, Factory: argSnapFactory(), Script: argScript()}}, path, func(e *trace.Event) {
		if e.Kind == trace.KindCmd {
			cmds = append(cmds, fmt.Sprintf("%d:%s", e.Node, e.Command()))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1:go@115", "2:go@110", "2:go"}; !slices.Equal(cmds, want) {
		t.Errorf("cmd events %v, want %v", cmds, want)
	}
}
