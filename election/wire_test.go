package election

import (
	"testing"

	"ringlab/engine/amqp"
	rcli "ringlab/engine/cli"
)

// TestRingWire: the ring election, and it alone, asks for the ring
// specification's broker names and timestamped messages; the engine
// learns them from the spec, not from the algorithm's name.
func TestRingWire(t *testing.T) {
	for _, name := range names() {
		spec, err := nodeRuns().Spec(name, nil, 1, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ring := name == "ring"
		if spec.RingNames != ring || spec.WireTimestamp != ring {
			t.Errorf("%s: RingNames %v, WireTimestamp %v, want %v", name, spec.RingNames, spec.WireTimestamp, ring)
		}
		t.Setenv(rcli.EnvPrefix, "")
		got := rcli.BrokerNames("election "+name, spec.RingNames, "nodes")
		if want := amqp.RingNames(); (got == want) != ring {
			t.Errorf("%s: broker names %+v (ring names %+v)", name, got, want)
		}
	}
}
