package live

import (
	"testing"
	"testing/synctest"
	"time"

	"ringlab/engine/node"
)

// timerNode sets a timer every tick until it has fired `left` times, then
// says Done: a run that lasts left ticks of (fake) time.
type timerNode struct{ left int }

func (n *timerNode) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd || in.Kind == node.InTick {
		if n.left > 0 {
			n.left--
			out.SetTimer(1, 1)
		}
	}
	out.Done = n.left == 0
}

// Progress is reported about five times a second while a run goes on, with
// the nodes still at work.
func TestProgressIsReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []Progress
		res, err := runLive(t.Context(), config{
			Nodes:    2,
			Factory:  func(int) (node.Node, error) { return &timerNode{left: 1000}, nil },
			Script:   []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}},
			Tick:     time.Millisecond,
			Progress: func(p Progress) { seen = append(seen, p) },
		})
		if err != nil || !res.Quiescent {
			t.Fatalf("%v: %+v", err, res)
		}
		if len(seen) < 4 || len(seen) > 5 {
			t.Fatalf("%d progress reports in a 1 s run, want 4 or 5: %+v", len(seen), seen)
		}
		if seen[0].NotDone != 2 {
			t.Errorf("first report %+v: both nodes are still at work", seen[0])
		}
	})
}
