package changroberts

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"ringlab/engine/node"
)

// Factory validates the ring once (ids[i-1] is node i's id; at least one,
// all distinct, any int) and returns a node.Factory building node i.
//
// The nodes it builds come out of one array allocated on the first call (a
// million-node ring is one pointer-free allocation, not a million small
// ones, which the simulator's prefetching can find by index); every call
// still returns a node of its own, so a runtime that rebuilds a node
// (restart) or reruns the factory gets fresh ones.
func Factory(ids []int) (node.Factory, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("a ring needs at least 1 node id, got none")
	}
	if len(ids) > math.MaxInt32 {
		return nil, fmt.Errorf("a ring has at most %d nodes, got %d", math.MaxInt32, len(ids))
	}
	if !distinctDense(ids) {
		if err := distinctSorted(ids); err != nil {
			return nil, err
		}
	}
	ids = slices.Clone(ids)
	n := len(ids)
	slab := sync.OnceValue(func() []Node { return make([]Node, n) })
	var used atomic.Int64
	return func(i int) (node.Node, error) {
		if i < 1 || i > n {
			return nil, fmt.Errorf("node index %d is outside 1..%d", i, n)
		}
		// Only a rebuild past the first n allocates on its own: taking
		// new(Node) first and replacing it would cost every node a
		// garbage allocation.
		var nd *Node
		if k := used.Add(1) - 1; k < int64(n) {
			nd = &slab()[k]
		} else {
			nd = new(Node)
		}
		*nd = Node{index: int32(i), next: int32(i%n + 1), id: ids[i-1]}
		return nd, nil
	}, nil
}

// distinctDense reports whether ids are distinct when they lie in a range
// at most 4n wide (a permutation of 1..n, say), in O(n) with a bitmap; it
// returns false otherwise, and for duplicates, leaving the verdict and its
// message to distinctSorted.
func distinctDense(ids []int) bool {
	lo, hi := slices.Min(ids), slices.Max(ids)
	span := uint64(hi) - uint64(lo) // no overflow: unsigned difference
	if span >= 4*uint64(len(ids)) {
		return false
	}
	seen := make([]uint64, span/64+1)
	for _, id := range ids {
		k := uint64(id) - uint64(lo)
		w, b := k/64, uint64(1)<<(k%64)
		if seen[w]&b != 0 {
			return false
		}
		seen[w] |= b
	}
	return true
}

// distinctSorted checks distinctness by sorting a copy, and names the
// smallest repeated id and its first two nodes.
func distinctSorted(ids []int) error {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for k := 1; k < len(sorted); k++ {
		if sorted[k] == sorted[k-1] {
			first := slices.Index(ids, sorted[k])
			second := first + 1 + slices.Index(ids[first+1:], sorted[k])
			return fmt.Errorf("node ids must be distinct: nodes %d and %d both have id %d", first+1, second+1, sorted[k])
		}
	}
	return nil
}

// Messages is the theory for a run in which every node starts: each id
// travels until the first larger id downstream swallows it, the maximum all
// the way round, so election is the sum of those distances, whatever the
// delivery order; the announcement adds n. It runs in O(n).
func Messages(ids []int) (election, announce int) {
	n := len(ids)
	if n == 0 {
		return 0, 0
	}
	// The ids whose larger successor is not yet seen, with their positions:
	// kept together, the stack is read in order, not ids at random (a
	// million-node ring took 0.18 s the other way).
	type pending struct{ id, at int }
	waiting := make([]pending, 0, n)
	for k := 0; k < 2*n; k++ {
		id := ids[k%n]
		for len(waiting) > 0 && waiting[len(waiting)-1].id < id {
			election += k - waiting[len(waiting)-1].at
			waiting = waiting[:len(waiting)-1]
		}
		if k < n {
			waiting = append(waiting, pending{id, k})
		}
	}
	return election + n, n // the maximum, still waiting, goes round once
}

// WorstCase is the most election messages with every node starting:
// n(n+1)/2, when ids decrease in the direction messages travel.
func WorstCase(n int) int { return n * (n + 1) / 2 }

// BestCase is the fewest election messages with every node starting: 2n-1,
// when ids increase in the direction messages travel.
func BestCase(n int) int { return 2*n - 1 }
