package statespace_test

import (
	"strings"
	"testing"

	"ringlab/engine/statespace"
)

// Renumbering the timestamps below every clock (node.Values.Stamp: Lamport's
// queued and ACQUIRE timestamps, Maekawa's requests' timestamps) is exact,
// as the whole reduction is (the unreduced graph's states map onto the
// reduced search's, each seen alike, with the renumbering on), and it
// merges states: the same spaces have fewer states with it than without.
// Maekawa's nodes also close gaps (node.Climber), which does all the
// renumbering does for them (its timestamps below every clock lie in gaps
// below the least clock, narrowed to 1), so for them the renumbering is
// measured with the gaps kept.
func TestLowStampsAreExactAndMerge(t *testing.T) {
	exactAndMerges(t, "stamps", []spaceCase{
		{"lamport", map[string]any{"nodes": 2, "requests": 2}, 0},
		{"lamport", map[string]any{"nodes": 2, "requests": 0}, 22},
	})
	exactAndMergesWithout(t, "gaps", "stamps", []spaceCase{
		{"maekawa", map[string]any{"nodes": 2, "requests": 0}, 18},
		{"maekawa", map[string]any{"nodes": 3, "requests": 1}, 0},
	})
}

// The family that kept Lamport's space at N = 3 infinite under the shift:
// P1 enters once and its RELEASE to P3 stays on the link, so P3 keeps
// P1's old entry (timestamp 1) queued, while P2 enters and leaves again
// and again, P1 and P3 answering (their next requests never taken). Each
// turn raises every clock by 5 and leaves the old entry where it is. Only
// its order matters (it is below every clock, and every later timestamp
// is above them): with the low timestamps renumbered the turns come back
// to the same reduced state; without, every turn is a new one.
func TestLowStampsCloseLamportsStaleEntry(t *testing.T) {
	cfg := mutexConfig(t, "lamport", map[string]any{"nodes": 3, "requests": 0}, 0)
	const prefix, turn, turns = "c1,d1-2,d1-3,d2-1,d3-1,c1,d1-2", "c2,d2-1,d2-3,d1-2,d3-2,c2,d2-1,d2-3", 6
	path, err := statespace.ParsePath(prefix+strings.Repeat(","+turn, turns), 3)
	if err != nil {
		t.Fatal(err)
	}
	var ends []int
	for k := 0; k <= turns; k++ {
		ends = append(ends, 7+8*k)
	}
	with, _, err := statespace.Reduced(cfg, path, ends, false)
	if err != nil {
		t.Fatal(err)
	}
	without, _, err := statespace.Reduced(cfg, path, ends, true)
	if err != nil {
		t.Fatal(err)
	}
	for k := 2; k <= turns; k++ {
		if with[k] != with[k-1] {
			t.Errorf("with the renumbering, turn %d leads to a new state", k)
		}
		for j := range k {
			if without[k] == without[j] {
				t.Errorf("without the renumbering, turns %d and %d end in the same state: the family proves nothing", j, k)
			}
		}
	}
}
