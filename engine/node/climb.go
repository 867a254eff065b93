package node

// Climber is an optional interface of a Stamper whose clock, when it is
// the least clock of a state, can rise only a bounded amount before the
// node takes the max with a higher clock. The exhaustive checker uses it
// to close the gap that grows between a node left behind (its request
// waiting on a link, say) and the nodes that climb on without it: the
// clock shift keeps such a gap, since the low clock is the least value and
// still read, and the renumbering of low timestamps does not touch a
// clock.
//
// The values are the node's clock, the timestamps it keeps (Stamper's) and
// those of its messages (MsgClimber). The contract, which makes the
// checker's gap closing exact (see engine/statespace, gaps.go):
//
//   - a step reads the values only by comparing them with one another (<,
//     =), by max, and by adding 1 to a clock, and stores them only as
//     copies; no value is compared with a constant (0 may mean "none") and
//     none is held outside the nodes and messages (the Shifter contract);
//   - the clock never decreases, and a step leaves it at most
//     max(clock, t) + rise, where t is the Clock of the message the step
//     delivers (the clock before the step if it delivers none or one
//     without a clock); every value the step makes is at most the clock
//     after it;
//   - Climb is a bound that falls by at least each step's rise: for every
//     step, Climb(in) >= rise + Climb(in) of the node after it, and for a
//     step that delivers a message from another node, Climb(in) >= rise +
//     Climb(in-1) after it (in >= 1). So Climb(in) bounds how far the
//     clock can rise above the larger of the clock and the clocks of in
//     messages it will receive, before it receives any other message.
//     Climb never falls as in grows (a message lost on its way to the
//     node leaves the bound at most what it was), and it depends on the
//     node's state but not on the sizes of its values (two nodes that
//     differ only by an order-keeping map of their values have the same
//     Climb).
//
// A restart, which rebuilds a node with a lower clock, is outside it: the
// checker does not close gaps while a restart may still happen.
type Climber interface {
	Stamper
	// AppendValues appends every clock value and timestamp the node's
	// future reads (those LeastClock ranges over, the clock among them),
	// and ok: whether the contract holds for the node as it stands (false:
	// the state's gaps are left as they are).
	AppendValues(vs []int) ([]int, bool)
	// MapValues returns an independent copy of the node with every value
	// AppendValues reports replaced by f(v); f is strictly increasing.
	MapValues(f func(int) int) Snapshot
	// Climb returns the bound described above for in messages from other
	// nodes, and ok: false if the node has none (its clock can climb on
	// its own for ever).
	Climb(in int) (rise int, ok bool)
}

// MsgClimber is the message side of Climber. A state holding a message
// that does not implement it keeps its gaps.
type MsgClimber interface {
	MsgStamper
	// AppendValues appends every clock value and timestamp the message
	// carries (those LeastClock counts).
	AppendValues(vs []int) []int
	// MapValues returns the message with every value AppendValues reports
	// replaced by f(v); f is strictly increasing.
	MapValues(f func(int) int) Msg
	// Clock returns the clock the message brings its receiver, the value
	// the receiver takes the max with (has: false if none, or if it was
	// forgotten as no higher than the receiver's clock).
	Clock() (t int, has bool)
}
