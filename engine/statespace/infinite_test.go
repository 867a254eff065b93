package statespace_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/statespace"
)

// Maekawa with --requests 0 at N = 3 stays infinite under every exact
// reduction the checker has (the clock shift, values the receiver will
// not read forgotten, timestamps below every clock renumbered, identifiers
// renamed): P3 asks first (its REQUEST,
// stamped 1, waits on the link to P1, which never delivers it) and P1's
// first request is never taken, while P2, whose quorum {P1, P2} leaves P3
// out, enters and leaves again and again. Each turn raises P1's and P2's
// clocks by 5; P3's clock and its request's timestamp stay. The reduced
// states after 1, 2, ... turns are all different, so no search exhausts
// the space. The low values are read: P3's request timestamp by each
// LOCKED for it (equality) and, in the REQUEST and at P3's own arbiter, by
// the queue order, where it beats every later request; P3's clock by its
// next step. On this path only their order with the rest matters (every
// later timestamp is above every clock now, and P3's next step is a
// receipt stamped above its clock, since this workload asks only after an
// exit), but P3's own clock is the least clock, so no timestamp is below
// every clock and the shift keeps the gap: forgetting P3's clock would take
// a promise from the workload (no request while P3 waits), which a node
// cannot make. The same holds with P3's first request never taken (P3's
// clock, which its request will read, stays while the others climb).
func TestMaekawaAtThreeStaysInfinite(t *testing.T) {
	// a depth bound, as the check asks for this infinite space; the
	// paths below are replayed, not searched
	cfg := mutexConfig(t, "maekawa", map[string]any{"nodes": 3, "requests": 0}, 1000)
	const turn, turns = "c2,d2-1,d1-2,c2,d2-1", 12
	// With P3's REQUEST waiting on the link, and (a second family) with
	// P3's first request never taken: its clock then stays 0, read by its
	// request whenever it comes.
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
		keys, nodes, err := statespace.Reduced(cfg, path, ends, false)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for k, key := range keys {
			if j, ok := seen[key]; ok {
				t.Fatalf("prefix %q: the reduced state after %d turns is the one after %d: the space may close", prefix, k, j)
			}
			seen[key] = k
		}
		// In the reduced states P3's clock stays put while P2's climbs
		// by 5 a turn (the least value stays P3's, so the shift moves
		// nothing from one turn to the next).
		for k := 2; k < len(nodes); k++ {
			c2, c3 := clockOf(t, nodes[k][1]), clockOf(t, nodes[k][2])
			p2, p3 := clockOf(t, nodes[k-1][1]), clockOf(t, nodes[k-1][2])
			if c3 != p3 || c2-p2 != 5 {
				t.Errorf("prefix %q, turn %d: P2's clock %d -> %d, P3's %d -> %d; want P3's unchanged and P2's 5 higher", prefix, k, p2, c2, p3, c3)
			}
		}
		t.Logf("prefix %q, after %d turns: P2's clock %d, P3's %d", prefix, turns, clockOf(t, nodes[turns][1]), clockOf(t, nodes[turns][2]))
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
