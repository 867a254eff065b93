package bully_test

import (
	"testing"

	"example.com/ringlab-examples/labs/bully/bully"
	"ringlab/engine"
	"ringlab/engine/enginetest"
	"ringlab/engine/vet"
)

// params are the lab's parameters: nodes, the node down from the start
// (0: none) and the nodes that suspect the leader at tick 0.
func params(t *testing.T, nodes, down int, starters string) engine.Params {
	t.Helper()
	p := bully.Algorithm().Defaults()
	for name, v := range map[string]any{"nodes": nodes, "down": down, "starters": starters} {
		if err := p.Give(name, v); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestVet lints the nodes: a Step that is not deterministic, a state the
// engine cannot copy or key.
func TestVet(t *testing.T) {
	vet.Test(t, bully.Algorithm(), params(t, 4, 4, "1,2"))
}

// TestSweepAllAlive runs four nodes, all alive, nodes 1 and 2 suspecting
// the leader, under 200 seeded schedules of the simulator: node 4 wins.
func TestSweepAllAlive(t *testing.T) {
	enginetest.Sweep(t, bully.Algorithm(), params(t, 4, 0, "1,2"), 200)
}

// TestSweepLeaderDown is the chapter's worked example at four nodes: the
// old leader 4 is down, 1 and 2 suspect it; node 3 must time out on 4 and
// win.
func TestSweepLeaderDown(t *testing.T) {
	enginetest.Sweep(t, bully.Algorithm(), params(t, 4, 4, "1,2"), 200)
}
