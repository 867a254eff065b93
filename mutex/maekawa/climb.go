package maekawa

// The node.Climber side of a node: how far its clock can rise before it
// hears from a node whose clock is higher.
//
// A step raises the clock by one per update: the tick of a request, and
// max(clock, T)+1 for every message it handles, the one delivered and then
// those it sends itself (its own arbiter and requester talk by local
// calls, each carrying the clock, so each adds exactly 1). Counted by
// hand, with a quorum of two or more:
//
//   - a request (RELEASED): tick, REQUEST to itself, LOCKED or FAILED back:
//     3, and the node is WANTED;
//   - a release (HELD): RELEASE to itself (its arbiter locks for another
//     node, never for it: its request was the lock), then, with a request
//     remembered, the request's 3: at most 4, and the node is RELEASED or
//     WANTED;
//   - a command while WANTED changes no clock (a request is remembered, a
//     release ignored): WANTED can end only with a LOCKED from another
//     member, a message;
//   - a message from another node: its update, then at most a FAILED or an
//     INQUIRE to itself (a REQUEST that displaces it or asks back its
//     lock), a RELINQUISH to itself and a LOCKED to itself: at most 4
//     (mutextest.CheckClimb measures every step against Climb).
//
// So climbRank (0 WANTED, 3 RELEASED, 4 HELD) falls by at least each
// command step's rise, and a message step rises at most 4 and lifts the
// rank by at most 4 (WANTED to HELD): perMessage = 8 pays for it.
const perMessage = 8

func (n *Node) climbRank() int {
	switch n.state {
	case StateReleased:
		return 3
	case StateHeld:
		return 4
	}
	return 0
}

// Climb is the node's bound on how far its clock climbs (node.Climber): climbRank + 8·in; no bound for a quorum
// of one (a lone node enters and leaves on its own for ever).
func (n *Node) Climb(in int) (rise int, ok bool) {
	if len(n.quorum) < 2 {
		return 0, false
	}
	return n.climbRank() + perMessage*in, true
}
