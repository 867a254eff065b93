package maekawa

import "ringlab/engine/node"

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

// Climb implements node.Climber: climbRank + 8·in; no bound for a quorum
// of one (a lone node enters and leaves on its own for ever).
func (n *Node) Climb(in int) (rise int, ok bool) {
	if len(n.quorum) < 2 {
		return 0, false
	}
	return n.climbRank() + perMessage*in, true
}

// AppendValues implements node.Climber: the clock and the timestamps
// AppendStamps reports, and those of the messages to itself.
func (n *Node) AppendValues(vs []int) ([]int, bool) {
	vs = append(vs, n.clock)
	if n.state != StateReleased {
		vs = append(vs, n.reqT)
	}
	if n.lock != nil {
		vs = append(vs, n.lock.T)
	}
	for _, r := range n.waiting {
		vs = append(vs, r.T)
	}
	for _, m := range n.local {
		vs = m.AppendValues(vs)
	}
	return vs, true
}

// MapValues implements node.Climber. Maekawa compares its values only
// with one another (Before, equality of a message's ReqT with reqT or the
// lock's T), takes their max and adds 1 to its clock (see ShiftClocks).
func (n *Node) MapValues(f func(int) int) node.Snapshot {
	c := n.Clone().(*Node)
	c.clock = f(c.clock)
	if c.state != StateReleased {
		c.reqT = f(c.reqT)
	}
	if c.lock != nil {
		c.lock.T = f(c.lock.T)
	}
	for k := range c.waiting {
		c.waiting[k].T = f(c.waiting[k].T)
	}
	for k := range c.local {
		c.local[k] = c.local[k].MapValues(f).(Msg)
	}
	return c
}

// AppendValues implements node.MsgClimber: T and ReqT, but a 0 (none).
func (m Msg) AppendValues(vs []int) []int {
	for _, v := range [2]int{m.T, m.ReqT} {
		if v != 0 {
			vs = append(vs, v)
		}
	}
	return vs
}

// MapValues implements node.MsgClimber: it maps a value, not a 0.
func (m Msg) MapValues(f func(int) int) node.Msg {
	if m.T != 0 {
		m.T = f(m.T)
	}
	if m.ReqT != 0 {
		m.ReqT = f(m.ReqT)
	}
	return m
}

// Clock implements node.MsgClimber: the sender's clock T, which handle
// takes the max with; a 0 was forgotten (Forget) as no higher than the
// receiver's clock.
func (m Msg) Clock() (int, bool) { return m.T, m.T != 0 }
