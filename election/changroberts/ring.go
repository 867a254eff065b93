package changroberts

import (
	"fmt"
	"slices"

	"ringlab/internal/node"
)

// Factory validates the ring once (ids[i-1] is node i's id; at least one,
// all distinct, any int) and returns a node.Factory building node i.
func Factory(ids []int) (node.Factory, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("a ring needs at least 1 node id, got none")
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for k := 1; k < len(sorted); k++ {
		if sorted[k] == sorted[k-1] {
			first := slices.Index(ids, sorted[k])
			second := first + 1 + slices.Index(ids[first+1:], sorted[k])
			return nil, fmt.Errorf("node ids must be distinct: nodes %d and %d both have id %d", first+1, second+1, sorted[k])
		}
	}
	ids = slices.Clone(ids)
	return func(i int) (node.Node, error) {
		if i < 1 || i > len(ids) {
			return nil, fmt.Errorf("node index %d is outside 1..%d", i, len(ids))
		}
		return New(Config{Index: i, N: len(ids), ID: ids[i-1]})
	}, nil
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
	waiting := make([]int, 0, n) // positions whose larger successor is not yet seen
	for k := 0; k < 2*n; k++ {
		for len(waiting) > 0 && ids[waiting[len(waiting)-1]] < ids[k%n] {
			election += k - waiting[len(waiting)-1]
			waiting = waiting[:len(waiting)-1]
		}
		if k < n {
			waiting = append(waiting, k)
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
