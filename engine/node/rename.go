package node

// Renamer is an optional interface of a Snapshot, needed by the exhaustive
// checker's symmetry reduction (engine.Symmetry): a node state that is
// renamed when the nodes are. A permutation perm renames node i to
// perm[i], for i in 1..n (perm[0] is unused and 0).
//
// The contract: Rename returns an independent copy of the node as the
// node at index perm[i] would hold it, every node index it holds (its
// own, its neighbours', the indices in its queues and tables) replaced by
// its image under perm. A node that holds no index returns a plain
// clone. Values that only name something (a token's name, an id the
// algorithm compares) are left alone when the algorithm never relates
// them to an index.
type Renamer interface {
	Snapshot
	// Rename returns an independent copy of the node renamed by perm.
	Rename(perm []int) Snapshot
}

// MsgRenamer is the message side of Renamer: a message returns itself
// with every node index it carries replaced by its image under perm (a
// message that carries none returns itself).
type MsgRenamer interface {
	Msg
	// Rename returns the message renamed by perm.
	Rename(perm []int) Msg
}

// StateRenamer is implemented by the rest of a checked state that holds
// node indices and is renamed with the nodes: a workload's state, a
// property's snapshot (the nodes inside the critical section, the
// self-declared leaders). RenameNodes replaces, in place, every node
// index i it holds by perm[i]; the checker calls it on a clone only.
type StateRenamer interface {
	// RenameNodes renames, in place, every node index held by perm.
	RenameNodes(perm []int)
}
