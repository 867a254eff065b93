package statespace

import (
	"context"
	"errors"
	"strings"
	"testing"

	"ringlab/engine/node"
)

// sharing is greeter with a Clone that shares order, which Step appends
// to: a clone's append writes into the array its original and every other
// clone share (room for 4), so one clone's greeting overwrites another's.
// Node 1 raises the flag when it has had one node's greeting twice, which
// no run does.
type sharing struct{ greeter }

func (g *sharing) Step(in node.Input, out *node.Output) {
	if in.Kind != node.InMsg {
		g.greeter.Step(in, out)
		return
	}
	g.order = append(g.order, in.Msg.(hello).From)
	if g.index == 1 && len(g.order) == 2 && g.order[0] == g.order[1] {
		out.EnterCS()
	}
}

func (g *sharing) Clone() node.Node { c := *g; return &c }

// The search meets the broken Clone as node 1's first greeting, recorded
// as 2 in one state, turned into 3 by a sibling's append: it then raises
// the flag on a path (2->1, then 3->1) that does not raise it when
// replayed, and stops with a ContractError naming the node type, not a
// verdict. (One worker: on two, the memory the clones share is written
// by both workers, a data race of the node's own that -race reports.)
func TestABrokenCloneStopsTheSearchWithAContractError(t *testing.T) {
	for _, por := range []bool{false, true} {
		for _, workers := range []int{1} {
			cfg := greeters(3, true)
			cfg.POR, cfg.Workers = por, workers
			cfg.Factory = func(i int) (node.Node, error) {
				return &sharing{greeter{collector{index: i, order: make([]int, 0, 4)}, 3}}, nil
			}
			res, err := Search(context.Background(), cfg)
			var ce *ContractError
			if !errors.As(err, &ce) {
				t.Errorf("por=%v workers=%d: err %v, violation %v after %s; want a ContractError", por, workers, err, res.Violation, FormatPath(res.Path))
				continue
			}
			if ce.Node != "*statespace.sharing" || !strings.Contains(err.Error(), "no verdict") {
				t.Errorf("por=%v workers=%d: %v; want it to name *statespace.sharing and say there is no verdict", por, workers, err)
			}
			if testing.Verbose() {
				t.Log(err)
			}
		}
	}
}

// The same system with a Clone that copies: the violation is found and
// confirmed, no ContractError.
func TestAGoodCloneKeepsItsViolation(t *testing.T) {
	cfg := greeters(3, true)
	cfg.Factory = func(i int) (node.Node, error) {
		return &greeter{collector{index: i, order: make([]int, 0, 4)}, 3}, nil
	}
	res, err := Search(context.Background(), cfg)
	if err != nil || res.Violation == nil || len(res.Path) != 4 {
		t.Fatalf("err %v, violation %v after %s; want one after 4 steps", err, res.Violation, FormatPath(res.Path))
	}
}
