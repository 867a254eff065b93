package amqp

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// TestActionArg: a scripted or reacted Action's Arg reaches the node's
// Input and its cmd event, as the node's command parameter.
func TestActionArg(t *testing.T) {
	a := nodetest.NewArgs(3)
	var mu sync.Mutex
	var cmds []string
	oneProcess(t, config{Codec: testCodec(), Nodes: 3, Factory: a.Factory(), Script: nodetest.ArgScript(), React: nodetest.ArgReact,
		Sink: func(e *trace.Event) {
			if e.Kind == trace.KindCmd {
				mu.Lock()
				cmds = append(cmds, fmt.Sprintf("%d:%s", e.Node, e.Command()))
				mu.Unlock()
			}
		}})
	slices.Sort(cmds)
	if want := []string{"1:go@115", "2:go@110", "3:go@7"}; !slices.Equal(cmds, want) || fmt.Sprint(a.Got) != fmt.Sprint(nodetest.ArgWant()) {
		t.Errorf("cmd events %v (want %v), nodes got %v (want %v)", cmds, want, a.Got, nodetest.ArgWant())
	}
}

// TestHandedActionHoldsTheRunUp: an action one node's reaction hands to
// another node is work in flight though no report shows it. Every node is
// done at once here, and node 1's note hands node 3 a command 300 ticks
// later: the run must not end before node 3 carries it out (it did, on
// the old code, as soon as every node had reported done).
func TestHandedActionHoldsTheRunUp(t *testing.T) {
	a := nodetest.NewArgs(3)
	late := func(i int, ev node.Event, _ int64) []node.Action {
		if i == 1 && ev.Kind == node.EvNote {
			return []node.Action{{At: 300, Node: 3, Cmd: "go", Arg: 7}}
		}
		return nil
	}
	oneProcess(t, config{Codec: testCodec(), Nodes: 3, Factory: a.Factory(),
		Script: []node.Action{{At: 0, Node: 1, Cmd: "go", Arg: 115}}, React: late})
	if want := [][]int{{115}, nil, {7}}; fmt.Sprint(a.Got) != fmt.Sprint(want) {
		t.Errorf("nodes got %v, want %v: the run ended before node 3's handed command", a.Got, want)
	}
}
