package tokenring_test

import (
	"testing"

	"example.com/ringlab-examples/labs/tokenring/tokenring"
	"ringlab/engine"
	"ringlab/engine/enginetest"
	"ringlab/engine/vet"
)

// params are the algorithm's parameters: nodes and each node's requests.
func params(t *testing.T, nodes, requests int) engine.Params {
	t.Helper()
	p := tokenring.Algorithm().Defaults()
	if err := p.Give("nodes", nodes); err != nil {
		t.Fatal(err)
	}
	if err := p.Give("requests", requests); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVet lints the nodes: a Step that is not deterministic, a state that
// shares memory, a key that misses a field.
func TestVet(t *testing.T) {
	vet.Test(t, tokenring.Algorithm(), params(t, 3, 1))
}

// TestSweepOneRequest runs three nodes, each asking once, under 200
// seeded schedules of the simulator: mutual exclusion, one token, every
// request served, and the run ends (the token retires).
func TestSweepOneRequest(t *testing.T) {
	enginetest.Sweep(t, tokenring.Algorithm(), params(t, 3, 1), 200)
}

// TestSweepFourNodes is the same with four nodes asking twice each.
func TestSweepFourNodes(t *testing.T) {
	enginetest.Sweep(t, tokenring.Algorithm(), params(t, 4, 2), 200)
}
