package engine

import (
	"fmt"
	"slices"
)

// Symmetry declares a group of renamings of the node indices under which a
// System behaves alike, so that the exhaustive checker may keep one state
// of every orbit (`check --symmetry`). Two kinds are declared, one at a
// time: Rotations, the n rotations of a ring (node i becomes node
// (i-1+r) mod n + 1), and Interchangeable, a set of nodes any
// permutation of which is a symmetry (a coordinator's clients).
//
// A declaration is a promise the checker cannot take on trust, and it is
// valid only if every renaming g of the group maps the system onto
// itself: the successors of g(s) are the g-images of the successors of s
// (the nodes' Step, the Factory that restarts a node, the workload's
// React), the properties judge g(s) as they judge s (a property that
// names a particular node, "the leader is node 1", is not invariant), and
// no command's Arg holds a node index. The initial state need not be
// symmetric. Every node state and every message must declare its node
// indices (node.Values.Index), and the workload and every check.Snapshot
// property must be a check.NodeRenamer. statespace.CheckSymmetry tests the promise on the
// reachable states of a small configuration.
//
// Symmetry hides liveness violations (a fair cycle of the quotient need
// not be one of the system), so a check with --liveness refuses it.
type Symmetry struct {
	// Rotations declares the rotations of a ring of all the nodes.
	Rotations bool
	// Interchangeable lists the nodes (at least two, by index) that may be
	// permuted among themselves; the others stay in place.
	Interchangeable []int
}

// Validate reports whether s declares exactly one kind of symmetry over n
// nodes: at least two of them, each once and in 1..n.
func (s *Symmetry) Validate(n int) error {
	switch {
	case s.Rotations && len(s.Interchangeable) > 0:
		return fmt.Errorf("symmetry: declare rotations or interchangeable nodes, not both")
	case s.Rotations:
		if n < 2 {
			return fmt.Errorf("symmetry: rotations need at least 2 nodes, got %d", n)
		}
		return nil
	case len(s.Interchangeable) < 2:
		return fmt.Errorf("symmetry: declares nothing (no rotations, %d interchangeable nodes)", len(s.Interchangeable))
	}
	seen := map[int]bool{}
	for _, i := range s.Interchangeable {
		if i < 1 || i > n || seen[i] {
			return fmt.Errorf("symmetry: interchangeable node %d: each must be in 1..%d and listed once", i, n)
		}
		seen[i] = true
	}
	return nil
}

// String describes the group: "rotations of the ring", "permutations of
// nodes 2..6 (5 interchangeable)".
func (s *Symmetry) String() string {
	if s.Rotations {
		return "rotations of the ring"
	}
	ns := slices.Sorted(slices.Values(s.Interchangeable))
	if ns[len(ns)-1]-ns[0] == len(ns)-1 {
		return fmt.Sprintf("permutations of nodes %d..%d (%d interchangeable)", ns[0], ns[len(ns)-1], len(ns))
	}
	return fmt.Sprintf("permutations of nodes %v (%d interchangeable)", ns, len(ns))
}
