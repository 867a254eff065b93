package node

// Shifter is an optional interface of a Snapshot whose logical clocks
// (Lamport's, say) matter only relative to one another. Such clocks grow
// without end, so every run that never stops makes an infinite state
// space; the exhaustive checker makes it finite by shifting every clock of
// a state, in every node and every message in flight, by the same amount:
// the one that makes the least clock the state holds 1.
//
// The contract, which makes the reduction exact: for every state whose
// nodes and messages all implement it, and every d that leaves each of
// its clocks at least 1 (d may be negative: a state whose least clock is 0
// is shifted up), the state shifted by d takes the same steps, with the
// same events (notes included), to states that are the successors' shifts
// by d. A clock of 0 is then free to mean "none" in a message.
// That holds when the algorithm only compares clocks and timestamps with
// one another (<, =, max) and adds constants to them; it fails if a step
// compares a clock with a constant, or if something outside the nodes and
// messages (a command's Arg, a property, the workload) holds a clock.
type Shifter interface {
	Snapshot
	// LeastClock returns the least clock value the node's future depends
	// on (has: false if it holds none), and exact: whether the contract
	// holds for the node as it stands (false, say, for a configuration
	// whose clocks are not all relative, or a pending floor that is
	// absolute): a state with a node that says false is not shifted.
	LeastClock() (least int, has, exact bool)
	// ShiftClocks returns an independent copy of the node with every clock
	// value it depends on decreased by d (d < LeastClock).
	// Values the node keeps but no longer depends on (the timestamp of a
	// request already granted and left) are set to a canonical value, so
	// that states that differ only in them become one.
	ShiftClocks(d int) Snapshot
}

// MsgShifter is the message side of Shifter: a message that carries clock
// values. A state holding a message that does not implement it is not
// shifted.
type MsgShifter interface {
	Msg
	// LeastClock returns the least clock value the message carries (has:
	// false if it carries none: a 0 that means "no timestamp", say).
	LeastClock() (least int, has bool)
	// ShiftClocks returns the message with every clock value it carries
	// decreased by d (those LeastClock counts).
	ShiftClocks(d int) Msg
}

// Forgetter is an optional interface of a Shifter that can tell which
// values of a message in flight to it it will never read: the clock a
// message brings, say, which a receiver reads only as max(clock, T), once
// T is at most its own clock, which never decreases. The exhaustive
// checker sets those values to a canonical one in every state it keeps
// (before the clock shift), so that states that differ only in them
// become one.
//
// The contract, which makes the reduction exact: whatever steps the
// system takes until m is delivered (the node's own included), delivering
// Forget's message instead of m makes the node take the same step, with
// the same events (notes included), to the same state. A restart, which
// rebuilds the node, is outside it: the checker does not call Forget while
// a restart may still happen. The message returned must be a MsgShifter
// that reports none of the values it made canonical (a 0 that means
// "none", say).
type Forgetter interface {
	Shifter
	// Forget returns m, in flight to the node from node from, with the
	// values the node will never read set to canonical ones, and whether
	// it changed anything.
	Forget(from int, m Msg) (Msg, bool)
}

// Stamper is an optional interface of a Shifter whose timestamps (the
// values it compares only with one another, for order and equality, and
// never adds to) matter only by their order once they are below every
// clock. A node's clock never decreases and every timestamp it makes is
// above its clock, so a timestamp below every clock of a state is lower
// than every timestamp made later, and is compared only with the others
// it finds lower or higher as before; fed to a clock (max(clock, T)), it
// leaves that clock as it is. The exhaustive checker renumbers those low
// timestamps, in every node and every message in flight, keeping their
// order and equalities, to the values just below the least clock, so that
// a request left waiting while the clocks climb does not leave a gap that
// grows.
//
// The contract, which makes the renumbering exact: the node's clock
// (StampFloor) never decreases; every timestamp it makes from now on is
// above it; and a state whose timestamps below the least clock are
// renamed by a one-to-one, order-keeping map into the values below it
// takes the same steps, with the same events, to the successors renamed
// alike. A restart, which rebuilds a node with a lower clock, is outside
// it: the checker does not renumber while a restart may still happen.
type Stamper interface {
	Shifter
	// StampFloor returns the node's clock, and ok: whether the contract
	// holds for the node as it stands (false: the state is not
	// renumbered).
	StampFloor() (clock int, ok bool)
	// AppendStamps appends the timestamps the node's future reads (a 0
	// that means "none" is not one).
	AppendStamps(ts []int) []int
	// RenameStamps returns an independent copy of the node with every
	// timestamp AppendStamps reports replaced by rename(t).
	RenameStamps(rename func(int) int) Snapshot
}

// MsgStamper is the message side of Stamper: a message that carries
// timestamps (a message that carries none implements it with nothing to
// report).
type MsgStamper interface {
	MsgShifter
	// AppendStamps appends the timestamps the message carries.
	AppendStamps(ts []int) []int
	// RenameStamps returns the message with every timestamp AppendStamps
	// reports replaced by rename(t).
	RenameStamps(rename func(int) int) Msg
}
