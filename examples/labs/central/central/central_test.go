package central_test

import (
	"testing"

	"example.com/ringlab-examples/labs/central/central"
	"ringlab/engine"
	"ringlab/engine/enginetest"
	"ringlab/engine/vet"
)

// params are the algorithm's parameters: nodes (the coordinator and the
// participants), each participant's requests, the coordinator's timeout.
func params(t *testing.T, nodes, requests int, timeout int64) engine.Params {
	t.Helper()
	p := central.Algorithm().Defaults()
	for k, v := range map[string]any{"nodes": nodes, "requests": requests, "timeout": timeout} {
		if err := p.Give(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestVet lints the nodes: a Step that is not deterministic, a state that
// shares memory, a key that misses a field.
func TestVet(t *testing.T) {
	vet.Test(t, central.Algorithm(), params(t, 4, 1, 30))
}

// TestSweepNoTimeout runs a coordinator and three participants, each
// asking twice, under 200 seeded schedules of the simulator, without the
// timeout: mutual exclusion, every request served, the run ends.
func TestSweepNoTimeout(t *testing.T) {
	enginetest.Sweep(t, central.Algorithm(), params(t, 4, 2, 0), 200)
}

// TestSweepTimeout is the same with a timeout of 30 ticks: longer than a
// holder's stay (2 ticks) and two messages (at most 10 ticks each) on the
// simulator, so it never fires on a live holder there.
func TestSweepTimeout(t *testing.T) {
	enginetest.Sweep(t, central.Algorithm(), params(t, 4, 2, 30), 200)
}
