package ricart

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot. The copy shares the node's slices: a
// step never changes one in place, it builds a new one, so a clone costs
// one allocation, and a step copies only what it changes.
func (n *Node) Clone() node.Node {
	c := *n
	return &c
}

// AppendKey implements node.Snapshot: clock, state, the outstanding
// request and its replies, the deferred requests (the configuration is
// fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendInt(b, n.clock)
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.reqT)
	b = node.AppendInt(b, n.nReplies)
	b = node.AppendInt(b, len(n.replied))
	for _, r := range n.replied {
		b = node.AppendBool(b, r)
	}
	b = node.AppendInt(b, len(n.deferred))
	for _, d := range n.deferred {
		b = node.AppendInt(node.AppendInt(b, d.from), d.t)
	}
	return node.AppendInts(b, n.later)
}

// LeastClock implements node.Shifter: the least of the clock, the
// outstanding request's timestamp (while WANTED: the only state that reads
// it) and the deferred requests' timestamps. A remembered request with a
// floor (a command's Arg) is an absolute clock: such a node is not
// shifted.
func (n *Node) LeastClock() (least int, has, exact bool) {
	for _, f := range n.later {
		if f > 0 {
			return 0, false, false
		}
	}
	least = n.clock
	if n.state == StateWanted {
		least = min(least, n.reqT)
	}
	for _, p := range n.deferred {
		least = min(least, p.t)
	}
	return least, true, true
}

// ShiftClocks implements node.Shifter. Ricart-Agrawala compares
// timestamps with one another (Before, a REPLY's ReqT with reqT), takes
// their max and adds 1; a floor of 0 is below every clock, shifted or not
// (the shift keeps every clock at least 1).
// So lowering every clock and timestamp of a state by the same d changes
// no decision. reqT is read only while WANTED: otherwise it is set to 0.
func (n *Node) ShiftClocks(d int) node.Snapshot {
	c := n.Clone().(*Node)
	c.deferred = slices.Clone(c.deferred)
	c.clock -= d
	if c.state == StateWanted {
		c.reqT -= d
	} else {
		c.reqT = 0
	}
	for k := range c.deferred {
		c.deferred[k].t -= d
	}
	return c
}

// LeastClock implements node.MsgShifter: the clock or timestamp the
// message carries, and a REPLY's request timestamp.
func (m Msg) LeastClock() (least int, has bool) {
	if m.Kind == MsgReply {
		return min(m.T, m.ReqT), true
	}
	return m.T, true
}

// ShiftClocks implements node.MsgShifter.
func (m Msg) ShiftClocks(d int) node.Msg {
	m.T -= d
	if m.Kind == MsgReply {
		m.ReqT -= d
	}
	return m
}

// ProtocolState is the node's state: RELEASED, WANTED or HELD (a goal of
// the exhaustive checker reads it).
func (n *Node) ProtocolState() string { return n.state }
