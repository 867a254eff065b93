package lamport_test

import (
	"testing"

	"example.com/ringlab-examples/labs/lamport/lamport"
	"ringlab/engine"
	"ringlab/engine/enginetest"
	"ringlab/engine/vet"
)

// params are the algorithm's parameters: nodes and each node's requests.
func params(t *testing.T, nodes, requests int) engine.Params {
	t.Helper()
	p := lamport.Algorithm().Defaults()
	if err := p.Give("nodes", nodes); err != nil {
		t.Fatal(err)
	}
	if err := p.Give("requests", requests); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVet lints the nodes: a Step that is not deterministic, a state the
// engine cannot copy or key.
func TestVet(t *testing.T) {
	vet.Test(t, lamport.Algorithm(), params(t, 3, 1))
}

// TestSweepOneRequest runs three nodes, each asking once, under 200
// seeded schedules of the simulator (FIFO links).
func TestSweepOneRequest(t *testing.T) {
	enginetest.Sweep(t, lamport.Algorithm(), params(t, 3, 1), 200)
}

// TestSweepTwoRequests is the same with two requests a node.
func TestSweepTwoRequests(t *testing.T) {
	enginetest.Sweep(t, lamport.Algorithm(), params(t, 3, 2), 200)
}
