package live

import (
	"sync/atomic"
	"testing"
	"time"

	"ringlab/engine/node"
)

// pingNode passes a token to its partner for ever; the node told to Start
// with Arg 1 instead ends the run (through config.Stop).
type pingNode struct {
	partner int
	stop    *atomic.Bool
}

type pingTok struct{}

func (pingTok) Type() string { return "tok" }

func (n *pingNode) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && in.Arg == 1 {
		n.stop.Store(true)
		return
	}
	out.Send(n.partner, pingTok{})
}

// TestReadyListServedWhileGoroutinesChain: every turn is held by a
// goroutine that passes a token between two nodes for ever, each hop
// readying the partner for the same goroutine (worker.next); one more
// node waits in the ready list. Release must serve the list at least every
// turnLen items, or the waiting node never runs and the run only ends at
// its timeout.
func TestReadyListServedWhileGoroutinesChain(t *testing.T) {
	pairs := maxTurns()
	var stop atomic.Bool
	n := 2*pairs + 1
	script := []node.Action{}
	for j := range pairs {
		script = append(script, node.Action{Node: 2*j + 1, Cmd: node.CmdStart})
	}
	script = append(script, node.Action{Node: n, Cmd: node.CmdStart, Arg: 1})
	cfg := config{
		Nodes: n,
		Factory: func(i int) (node.Node, error) {
			partner := i + 1
			if i%2 == 0 {
				partner = i - 1
			}
			return &pingNode{partner: partner, stop: &stop}, nil
		},
		Script:  script,
		Stop:    stop.Load,
		Timeout: 5 * time.Second,
	}
	res, err := runTurns(t.Context(), cfg)
	if err != nil || !res.Stopped {
		t.Fatalf("the waiting node did not run: %+v, %v", res, err)
	}
}
