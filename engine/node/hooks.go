package node

// ID is an identifier a node makes up (a request number, a token's
// generation): N, at least 1, is one of Owner's identifiers (Values.ID).
type ID struct {
	Owner int // the node whose identifier it is
	N     int // the identifier, at least 1
}

// Forgetter is implemented by a node that can tell which values of a
// message in flight to it it will never read: the clock a message brings,
// say, which a receiver reads only as max(clock, T), once T is at most its
// own clock, which never decreases. The exhaustive checker sets those
// values to a canonical one in every state it keeps, so that states that
// differ only in them become one.
//
// The contract: whatever steps the system takes until m is delivered (the
// node's own included), delivering Forget's message instead of m makes
// the node take the same step, with the same events, to the same state;
// and the message returned declares none of the values it made canonical
// (a 0 that means "none", say: Values). A restart, which rebuilds the
// node, is outside it: the checker does not call Forget while a restart
// may still happen.
type Forgetter interface {
	// Forget returns m, in flight to the node from node from, with the
	// values the node will never read set to canonical ones, and whether
	// it changed anything.
	Forget(from int, m Msg) (Msg, bool)
}

// Climber is implemented by a node that declares a clock (Values.Clock)
// which, when it is the least clock of a state, can rise only a bounded
// amount before the node takes the max with a higher clock. The checker
// uses it to narrow the gap that grows between a node left behind (its
// request waiting on a link, say) and the nodes that climb on without it,
// a gap the clock shift keeps. A state is narrowed only if every live
// node is a Climber.
//
// The contract, besides those of Clock and Stamp: no value is compared
// with a constant; the clock never decreases, and a step leaves it at most
// max(clock, t) + rise, t being the clock the delivered message brings
// (the clock before the step if none); every value the step makes is at
// most the clock after it; and Climb is a bound that falls by at least
// each step's rise: Climb(in) >= rise + Climb(in) after any step, and
// Climb(in) >= rise + Climb(in-1) after a step that delivers a message
// from another node. Climb never falls as in grows, and depends on the
// node's state but not on the sizes of its values. A restart is outside
// it: the checker does not narrow while one may happen.
type Climber interface {
	// Climb bounds how far the clock can rise above the larger of the
	// clock and the clocks of in messages it will receive, before it
	// receives any other message; ok is false if it has no bound.
	Climb(in int) (rise int, ok bool)
}

// TimerNamer is implemented by a node that says what its timers mean, for
// the pages and messages that name a timer: "the coordinator's timer 1,
// the grant timeout" rather than "timer 1" alone.
type TimerNamer interface {
	// TimerName is what timer id (the ID of Output.SetTimer) means: "grant
	// timeout"; "" when it has no name.
	TimerName(id int) string
}
