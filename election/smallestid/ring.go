package smallestid

import (
	"fmt"
	"slices"

	"ringlab/engine/node"
)

// Ring configures a whole run.
type Ring struct {
	// IDs[i-1] is node i's id. Ids must be distinct; any int is allowed.
	IDs []int
	// Extinction fixes the several-initiators problem of the specification's rules:
	// a node sends a candidate (rules 2, 3) only if it is smaller than every
	// candidate it has already sent, and drops the ELECTION otherwise. Rule 4
	// then fires exactly once. Off, the rules run as the specification wrote them.
	Extinction bool
}

// Validate reports what is wrong with r, worded for a CLI user.
func (r Ring) Validate() error {
	if len(r.IDs) == 0 {
		return fmt.Errorf("a ring needs at least 1 node id, got none")
	}
	sorted := slices.Clone(r.IDs)
	slices.Sort(sorted)
	for k := 1; k < len(sorted); k++ {
		if sorted[k] == sorted[k-1] {
			dup := sorted[k]
			first := slices.Index(r.IDs, dup)
			second := first + 1 + slices.Index(r.IDs[first+1:], dup)
			return fmt.Errorf("node ids must be distinct: nodes %d and %d both have id %d", first+1, second+1, dup)
		}
	}
	return nil
}

// Factory validates r once and returns a node.Factory building node i of
// len(r.IDs) in state ASLEEP.
func Factory(r Ring) (node.Factory, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	ids := slices.Clone(r.IDs)
	return func(i int) (node.Node, error) {
		if i < 1 || i > len(ids) {
			return nil, fmt.Errorf("node index %d is outside 1..%d", i, len(ids))
		}
		return New(Config{Index: i, N: len(ids), ID: ids[i-1], Extinction: r.Extinction})
	}, nil
}

// Messages is the theory for the rules as written (no Extinction): the
// ELECTION and ELECTED messages sent when the nodes at the given distinct
// indices start while every node is still ASLEEP, in any delivery order.
// Each initiator j's message travels d_j hops to the node with the minimum
// id, which answers with its own id once round the ring (n), which fires
// rule 4 and sends ELECTED once round the ring (n):
//
//	election = sum over initiators of (d_j + n),  elected = k*n.
//
// One initiator gives d + n and n (at most 2n-1 and n). With Extinction the
// ELECTED count is exactly n and the ELECTION count at most this one.
func Messages(ids []int, initiators []int) (election, elected int) {
	n := len(ids)
	if n == 0 {
		return 0, 0
	}
	leader := slices.Index(ids, slices.Min(ids)) + 1
	for _, j := range initiators {
		d := (leader - j + n) % n // hops from j to the leader
		election += d + n
		elected += n
	}
	return election, elected
}
