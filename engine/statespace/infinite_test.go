package statespace_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/statespace"
)

// The two families that kept Maekawa with --requests 0 at N = 3 infinite
// under the clock shift, the forgetting, the low timestamps' renumbering
// and the identifiers' renaming: P3 asks first (its REQUEST, stamped 1,
// waits on the link to P1, which never delivers it) and P1's first
// request is never taken, while P2, whose quorum {P1, P2} leaves P3 out,
// enters and leaves again and again; or P3's first request is never taken
// at all. Each turn raises P1's and P2's clocks by 5 while P3's clock
// stays, the least value of the state, still read (by the max of its next
// receipt, by its next request's stamp), so neither the shift nor the
// renumbering moves it and the gap above it grows.
//
// Narrowing the gaps (node.Climber, internal/reduction/gaps.go) closes both: P3 is the one
// node whose clock is below the others', and it can climb at most
// Climb(in) before a message from them lifts it (0 while WANTED with
// nothing low in flight to it, 3 while RELEASED), so the gap above it is
// narrowed to that bound plus one, and after the first turns the reduced
// states repeat. Without the narrowing every turn is a new state, as
// before.
func TestGapsCloseMaekawaAtThree(t *testing.T) {
	cfg := mutexConfig(t, "maekawa", map[string]any{"nodes": 3, "requests": 0}, 1000)
	const turn, turns = "c2,d2-1,d1-2,c2,d2-1", 8
	for _, prefix := range []string{"c3,", ""} {
		labels := prefix + strings.Repeat(turn+",", turns)
		path, err := statespace.ParsePath(strings.TrimSuffix(labels, ","), 3)
		if err != nil {
			t.Fatal(err)
		}
		var ends []int
		for k := 0; k <= turns; k++ {
			ends = append(ends, strings.Count(prefix, ",")+5*k)
		}
		with, _, err := statespace.ReducedWithout(cfg, path, ends, "")
		if err != nil {
			t.Fatal(err)
		}
		without, nodes, err := statespace.ReducedWithout(cfg, path, ends, "gaps")
		if err != nil {
			t.Fatal(err)
		}
		for k := 3; k <= turns; k++ {
			if with[k] != with[k-1] {
				t.Errorf("prefix %q: with the gaps narrowed, turn %d leads to a new reduced state", prefix, k)
			}
		}
		seen := map[string]int{}
		for k, key := range without {
			if j, ok := seen[key]; ok {
				t.Fatalf("prefix %q: without the narrowing, the state after %d turns is the one after %d: the family proves nothing", prefix, k, j)
			}
			seen[key] = k
		}
		// Without it, P3's clock stays put while P2's climbs by 5 a turn.
		for k := 2; k < len(nodes); k++ {
			c2, c3 := clockOf(t, nodes[k][1]), clockOf(t, nodes[k][2])
			p2, p3 := clockOf(t, nodes[k-1][1]), clockOf(t, nodes[k-1][2])
			if c3 != p3 || c2-p2 != 5 {
				t.Errorf("prefix %q, turn %d: P2's clock %d -> %d, P3's %d -> %d; want P3's unchanged and P2's 5 higher", prefix, k, p2, c2, p3, c3)
			}
		}
	}
}

// clockOf is a Maekawa node's clock: the first number of its key
// (AppendKey writes the clock first, as node.AppendInt, a zigzag varint).
func clockOf(t *testing.T, s node.Snapshot) int {
	t.Helper()
	v, n := binary.Varint(s.AppendKey(nil))
	if n <= 0 {
		t.Fatalf("%T: no clock at the head of its key", s)
	}
	return int(v)
}
