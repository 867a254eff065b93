package ringelection_test

import (
	"testing"

	"example.com/ringlab-examples/labs/ringelection/ringelection"
	"ringlab/engine"
	"ringlab/engine/enginetest"
	"ringlab/engine/vet"
)

// rings are the specification's four test cases: the ids in ring order,
// each started by node 1 (the third, ids descending, is the longest way
// to the smallest id).
var rings = []struct{ name, ids string }{
	{"ids_5_3_7", "5,3,7"},
	{"ids_5_3_7_1_4", "5,3,7,1,4"},
	{"ids_5_4_3_2_1", "5,4,3,2,1"},
	{"ids_100_42_7_999_13", "100,42,7,999,13"},
}

// params are the lab's parameters: the ids, the nodes that start (1-based
// indices, or all) and the properties graded (all, or a list).
func params(t *testing.T, ids, initiators, properties string) engine.Params {
	t.Helper()
	p := ringelection.Algorithm().Defaults()
	for name, v := range map[string]string{"ids": ids, "initiators": initiators, "properties": properties} {
		if err := p.Give(name, v); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestVet lints the node against the node contract: a Step that is not
// deterministic, a message the tools cannot decode.
func TestVet(t *testing.T) {
	vet.Test(t, ringelection.Algorithm(), params(t, "5,3,7,1,4", "all", "all"))
}

// sweep runs each ring, started by initiators, under seeds seeded
// schedules of the simulator, every property judged, and stops at the
// first ring that fails (a run that never ends takes a million steps).
func sweep(t *testing.T, initiators string, seeds int) {
	for _, r := range rings {
		ok := t.Run(r.name, func(t *testing.T) {
			enginetest.Sweep(t, ringelection.Algorithm(), params(t, r.ids, initiators, "all"), seeds)
		})
		if !ok {
			return
		}
	}
}

// TestFourCases runs each of the specification's four rings, started by
// node 1, under 20 seeded schedules of the simulator: every node must
// print the specification's lines in its order, and one leader, the
// smallest id, known to all, in a run that ends.
func TestFourCases(t *testing.T) { sweep(t, "1", 20) }

// TestAllStart runs the four rings with every node starting at once,
// under 50 seeded schedules each: one leader, the smallest id, known to
// all, and no more messages than the rules send.
func TestAllStart(t *testing.T) { sweep(t, "all", 50) }
