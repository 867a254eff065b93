package lamport

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot. The copy shares the queue: a step never
// changes a queue in place, it builds a new one (insert, onRelease,
// release), so a clone costs one allocation, and none for the queue of a
// step that leaves it as it is.
func (n *Node) Clone() node.Node {
	c := *n
	return &c
}

// AppendKey implements node.Snapshot: clock, state, the outstanding
// request, and the request queue (the configuration is fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendInt(b, n.clock)
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.reqT)
	b = node.AppendInt(b, n.acks)
	b = node.AppendInt(b, n.later)
	b = node.AppendInt(b, len(n.queue))
	for _, e := range n.queue {
		b = node.AppendInt(node.AppendInt(node.AppendInt(b, e.T), e.ID), e.Index)
	}
	return b
}

// LeastClock implements node.Shifter: the least of the clock and the
// queued timestamps (the outstanding request's is queued too). Under
// ClockRequests the shift is exact too, but useless: a node that only
// answers ticks at every ACQUIRE of a node that only requests, whose clock
// stays, so their distance grows without end (two nodes, --requests 0:
// depth 24,000 and counting). Only the paper's rule is shifted.
func (n *Node) LeastClock() (least int, has, exact bool) {
	if n.cfg.Clock != ClockEveryEvent {
		return 0, false, false
	}
	least = n.clock
	for _, e := range n.queue {
		least = min(least, e.T)
	}
	return least, true, true
}

// ShiftClocks implements node.Shifter. Lamport's algorithm only compares
// timestamps with one another, takes their max and adds 1, so lowering
// every clock and timestamp of a state by the same d changes no decision.
// reqT is written at each request and read by Status only: it is set to 0,
// and so is acks outside WANTED (maybeEnter reads it only while WANTED,
// request sets it to 0 before).
func (n *Node) ShiftClocks(d int) node.Snapshot {
	c := n.Clone().(*Node)
	c.queue = slices.Clone(c.queue)
	c.clock -= d
	c.reqT = 0
	if c.state != StateWanted {
		c.acks = 0
	}
	for k := range c.queue {
		c.queue[k].T -= d
	}
	return c
}

// LeastClock implements node.MsgShifter: the timestamp the message
// carries. Under ClockRequests an ACK or RELEASE carries 0, "no
// timestamp"; every timestamp is at least 1 (clocks start at 1 under that
// rule, and every message is stamped after a tick under the paper's; the
// checker's shift keeps every clock at least 1), so a 0 is never a clock.
func (m Msg) LeastClock() (least int, has bool) { return m.T, m.T != 0 }

// ShiftClocks implements node.MsgShifter: it shifts a timestamp, not a 0.
func (m Msg) ShiftClocks(d int) node.Msg {
	if m.T != 0 {
		m.T -= d
	}
	return m
}

// ProtocolState is the node's state: RELEASED, WANTED or HELD (a goal of
// the exhaustive checker reads it).
func (n *Node) ProtocolState() string { return n.state }

// Forget implements node.Forgetter under the paper's rule: an ACK's or a
// RELEASE's timestamp is read only by receive, as max(clock, T), so once T
// is at most the receiver's clock (which never decreases) it is set to 0,
// "none" (receive then gives the same clock). An ACQUIRE's timestamp is
// queued, so it is kept.
func (n *Node) Forget(from int, m node.Msg) (node.Msg, bool) {
	msg, ok := m.(Msg)
	if !ok || n.cfg.Clock != ClockEveryEvent || msg.Kind == MsgAcquire || msg.T == 0 || msg.T > n.clock {
		return m, false
	}
	msg.T = 0
	return msg, true
}

// StampFloor implements node.Stamper under the paper's rule: the clock
// (it never decreases, and a request is stamped after a tick, above it).
// Under ClockRequests a request is stamped with the clock as it stands:
// not renumbered.
func (n *Node) StampFloor() (int, bool) { return n.clock, n.cfg.Clock == ClockEveryEvent }

// AppendStamps implements node.Stamper: the queued requests' timestamps
// (reqT is not read: ShiftClocks zeroes it).
func (n *Node) AppendStamps(ts []int) []int {
	for _, e := range n.queue {
		ts = append(ts, e.T)
	}
	return ts
}

// RenameStamps implements node.Stamper. Timestamps are compared only in
// the queue's order (before) and fed to a clock by max.
func (n *Node) RenameStamps(rename func(int) int) node.Snapshot {
	c := n.Clone().(*Node)
	c.queue = slices.Clone(c.queue)
	for k := range c.queue {
		c.queue[k].T = rename(c.queue[k].T)
	}
	c.reqT = 0
	return c
}

// AppendStamps implements node.MsgStamper: an ACQUIRE's timestamp (an ACK's
// or a RELEASE's clock is no timestamp: it is only fed to a clock).
func (m Msg) AppendStamps(ts []int) []int {
	if m.Kind == MsgAcquire {
		ts = append(ts, m.T)
	}
	return ts
}

// RenameStamps implements node.MsgStamper.
func (m Msg) RenameStamps(rename func(int) int) node.Msg {
	if m.Kind == MsgAcquire {
		m.T = rename(m.T)
	}
	return m
}
