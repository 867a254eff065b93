package node

// ID is an identifier a node makes up (a request number, a token's
// generation): N, at least 1, is one of Owner's identifiers. Identifiers
// of different owners are unrelated; Owner is usually the node that makes
// them up.
type ID struct {
	Owner int // the node whose identifier it is
	N     int // the identifier, at least 1
}

// IDRenamer is an optional interface of a Snapshot whose identifiers (ID)
// matter only by equality and order among those of the same owner. Such
// identifiers grow without end (a participant numbers its requests 1, 2,
// 3, ...), so every run that never stops makes an infinite state space;
// the exhaustive checker makes it finite by renaming, owner by owner, the
// identifiers a state holds to 1..k in the same order, in every node and
// every message in flight.
//
// The contract, which makes the renaming exact: for every state whose
// nodes and messages all implement it, and every renaming that maps each
// owner's identifiers the state holds one to one, keeping their order,
// onto positive numbers, the renamed state takes the same steps, with the
// same events up to the renaming of the identifiers they carry, to states
// that are the successors renamed (the renaming extended to the
// identifiers the step makes up). That holds when a node compares an
// owner's identifiers only with one another (=, <), and makes up a new one
// only as one more than the greatest of the owner's that the state holds
// (so its owner reports its latest identifier as long as it may make up
// another); it fails if a step compares an identifier with a constant
// (other than 0, "none", which is never renamed), or if something outside
// the nodes and messages (a property, the workload) holds one.
type IDRenamer interface {
	Snapshot
	// AppendIDs appends to ids the identifiers the node's future depends
	// on (none of them 0), and reports exact: whether the contract holds
	// for the node as it stands (false: a state with this node is not
	// renamed).
	AppendIDs(ids []ID) (out []ID, exact bool)
	// RenameIDs returns an independent copy of the node with every
	// identifier AppendIDs reports replaced by rename(id). Values the node
	// keeps but no longer depends on (the request a coordinator no longer
	// holds, the votes of a request given up) are set to a canonical value,
	// so that states that differ only in them become one.
	RenameIDs(rename func(ID) int) Snapshot
}

// MsgIDRenamer is the message side of IDRenamer: a message that carries
// identifiers. A state holding a message that does not implement it is
// not renamed.
type MsgIDRenamer interface {
	Msg
	// AppendIDs appends to ids the identifiers the message carries (none
	// of them 0).
	AppendIDs(ids []ID) []ID
	// RenameIDs returns the message with every identifier AppendIDs
	// reports replaced by rename(id).
	RenameIDs(rename func(ID) int) Msg
}
