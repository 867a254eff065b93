package check

import (
	"encoding/binary"
	"slices"

	"ringlab/engine/trace"
)

// Snapshot is a property the exhaustive checker carries in each state it
// explores, so that it judges it at every step rather than only where a
// path ends. Clone returns an independent copy (Observe on the copy leaves
// the original as it was); AppendKey appends a canonical encoding of
// everything Observe's future reports depend on, so that two states whose
// keys are equal are judged alike from there on. A Snapshot's state must
// change only with the events of the node an event names, which is what
// lets steps at two different nodes commute; one whose state or reports
// follow the order of steps at different nodes is an OrderDependent one.
//
// A property that is not a Snapshot is judged where a run or a path ends.
type Snapshot interface {
	Property
	// Clone returns an independent copy of the property's state.
	Clone() Snapshot
	// AppendKey appends a canonical encoding of what Observe depends on.
	AppendKey(b []byte) []byte
}

// NodeSet is a small set of node indices kept sorted: the few nodes in
// the critical section, the few that take themselves as leader. It is
// cheap to copy and to key, which is what a Snapshot's state must be.
type NodeSet []int

// Has reports whether i is in the set.
func (s NodeSet) Has(i int) bool {
	_, ok := slices.BinarySearch(s, i)
	return ok
}

// Add puts i in the set.
func (s *NodeSet) Add(i int) {
	if k, ok := slices.BinarySearch(*s, i); !ok {
		*s = slices.Insert(*s, k, i)
	}
}

// Remove takes i out of the set.
func (s *NodeSet) Remove(i int) {
	if k, ok := slices.BinarySearch(*s, i); ok {
		*s = slices.Delete(*s, k, k+1)
	}
}

// RenameNodes renames every member i to perm[i] (NodeRenamer), in
// place.
func (s *NodeSet) RenameNodes(perm []int) {
	for k, i := range *s {
		(*s)[k] = perm[i]
	}
	slices.Sort(*s)
}

// AppendKey appends the set's length and members.
func (s NodeSet) AppendKey(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	for _, i := range s {
		b = binary.AppendUvarint(b, uint64(i))
	}
	return b
}

// OrderDependent is a Snapshot whose state or reports depend on the order
// in which steps at two different nodes happen: the grant order asks who
// was waiting when a node entered, which a step at another node decides.
// Such steps do not commute, so a search that carries one takes every
// step that changes the key of its environment (the properties' and the
// workload's state), or that reports a violation, as dependent on every
// other step: its partial-order reduction lets no step sleep across it.
// Its key must tell a state reached by a step it reported from one
// reached without (a violation once reported stays in the key): the
// search judges states, and two paths into one state would otherwise be
// judged as the first found.
type OrderDependent interface {
	Snapshot
	// OrderDependent marks the property; it does nothing.
	OrderDependent()
}

// Stamped is a Snapshot that holds timestamps the nodes made (the
// (timestamp, id) of a waiting request): the exhaustive checker's exact
// reductions that rename the nodes' timestamps, the clock shift and the
// renumbering of the low timestamps, rename the property's alike, so that
// it compares them with the nodes' as before.
type Stamped interface {
	Snapshot
	// AppendStamps appends the timestamps the property holds.
	AppendStamps(ts []int) []int
	// RenameStamps returns a copy with every timestamp t renamed to
	// rename(t) (rename keeps order and equality).
	RenameStamps(rename func(int) int) Snapshot
}

// Filter is a Wanter that tells, among the events of the kinds it wants,
// the ones that concern it: Observe of any other leaves its state as it
// was and reports nothing. A checker that copies a property's state
// before showing it an event (the exhaustive checker) spares the copy for
// the others.
type Filter interface {
	Wanter
	// Concerns reports whether Observe(e) may change the property's state
	// or report a violation.
	Concerns(e *trace.Event) bool
}

// NodeRenamer is implemented by the rest of a checked state that holds
// node indices and is renamed with the nodes under a symmetry
// (engine.Symmetry): a workload's state, a property's snapshot (the nodes
// inside the critical section, the self-declared leaders). RenameNodes
// replaces, in place, every node index i it holds by perm[i] (perm[0] is
// 0); the checker calls it on a clone only.
type NodeRenamer interface {
	// RenameNodes renames, in place, every node index held by perm.
	RenameNodes(perm []int)
}
