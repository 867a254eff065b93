package maekawa

import (
	"maps"
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node {
	c := *n
	c.local = slices.Clone(n.local)
	c.granted = maps.Clone(n.granted)
	c.inquired = maps.Clone(n.inquired)
	if n.lock != nil {
		l := *n.lock
		c.lock = &l
	}
	c.waiting = slices.Clone(n.waiting)
	return &c
}

// AppendKey implements node.Snapshot: the requester's and the arbiter's
// state, maps in key order (the quorum and the ids are fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendInt(b, n.clock)
	b = node.AppendInt(b, len(n.local))
	for _, m := range n.local {
		b = appendMsg(b, m)
	}
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.reqT)
	b = appendSet(b, n.granted)
	b = appendSet(b, n.inquired)
	b = node.AppendBool(b, n.failed)
	b = node.AppendInt(b, n.later)
	b = node.AppendBool(b, n.lock != nil)
	if n.lock != nil {
		b = appendRequest(b, *n.lock)
	}
	b = node.AppendBool(b, n.asked)
	b = node.AppendInt(b, len(n.waiting))
	for _, r := range n.waiting {
		b = appendRequest(b, r)
	}
	return b
}

func appendMsg(b []byte, m Msg) []byte {
	b = node.AppendString(b, string(m.Kind))
	return node.AppendInt(node.AppendInt(node.AppendInt(b, m.T), m.ReqT), m.ID)
}

func appendRequest(b []byte, r Request) []byte {
	b = node.AppendInt(node.AppendInt(node.AppendInt(b, r.T), r.ID), r.Index)
	return node.AppendBool(b, r.Failed)
}

// appendSet appends the keys whose value is true, ascending.
func appendSet(b []byte, m map[int]bool) []byte {
	keys := make([]int, 0, len(m))
	for k, v := range m {
		if v {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return node.AppendInts(b, keys)
}

// LeastClock implements node.Shifter: the least of the clock, the
// outstanding request's timestamp (while WANTED or HELD: a RELEASE names
// it), the lock's and the queued requests' timestamps, and those of the
// messages to itself (none between two steps).
func (n *Node) LeastClock() (least int, has, exact bool) {
	least = n.clock
	if n.state != StateReleased {
		least = min(least, n.reqT)
	}
	if n.lock != nil {
		least = min(least, n.lock.T)
	}
	for _, r := range n.waiting {
		least = min(least, r.T)
	}
	for _, m := range n.local {
		least = min(least, m.T, m.ReqT)
	}
	return least, true, true
}

// ShiftClocks implements node.Shifter. Maekawa compares timestamps only
// with one another (Before, a message's ReqT with reqT or the lock's T),
// takes their max and adds 1, so lowering every clock and timestamp of a
// state by the same d changes no decision. reqT is read only while WANTED
// or HELD: otherwise it is set to 0, and so are the lock flags of a
// request no longer outstanding (granted, inquired, failed: request()
// clears them before they are read again). failed is read only while
// WANTED (onFailed and onInquire return first otherwise), so it is false
// while HELD too; the lock's Failed flag is never read (Before does not
// read it, and onRelinquish sets it before queueing the lock): false.
func (n *Node) ShiftClocks(d int) node.Snapshot {
	c := n.Clone().(*Node)
	c.clock -= d
	if c.state != StateReleased {
		c.reqT -= d
	} else {
		c.reqT = 0
		clear(c.granted)
		clear(c.inquired)
	}
	if c.state != StateWanted {
		c.failed = false
	}
	if c.lock != nil {
		c.lock.T -= d
		c.lock.Failed = false
	}
	for k := range c.waiting {
		c.waiting[k].T -= d
	}
	for k := range c.local {
		c.local[k].T -= d
		c.local[k].ReqT -= d
	}
	return c
}

// LeastClock implements node.MsgShifter: the sender's clock and the
// request's timestamp, but a 0, which Forget leaves for a value its
// receiver will not read (every clock is at least 1 once a node sends).
func (m Msg) LeastClock() (least int, has bool) {
	for _, v := range [2]int{m.T, m.ReqT} {
		if v != 0 && (!has || v < least) {
			least, has = v, true
		}
	}
	return least, has
}

// ShiftClocks implements node.MsgShifter: it shifts a clock, not a 0.
func (m Msg) ShiftClocks(d int) node.Msg {
	if m.T != 0 {
		m.T -= d
	}
	if m.ReqT != 0 {
		m.ReqT -= d
	}
	return m
}

// Forget implements node.Forgetter. A message's clock T is read only by
// handle, as max(clock, T): once it is at most the receiver's clock (which
// never decreases) it is set to 0. A LOCKED, FAILED or INQUIRE is acted on
// only while its receiver is WANTED with the request it names (ReqT);
// otherwise it never will be, since every later request of the receiver
// is stamped above its clock, which is at least ReqT (a request it made):
// its ReqT is set to 0, which names no request.
func (n *Node) Forget(from int, m node.Msg) (node.Msg, bool) {
	msg, ok := m.(Msg)
	if !ok {
		return m, false
	}
	changed := false
	if msg.T != 0 && msg.T <= n.clock {
		msg.T, changed = 0, true
	}
	switch msg.Kind {
	case MsgLocked, MsgFailed, MsgInquire:
		if msg.ReqT != 0 && (n.state != StateWanted || msg.ReqT != n.reqT) && msg.ReqT <= n.clock {
			msg.ReqT, changed = 0, true
		}
	}
	return msg, changed
}

// StampFloor implements node.Stamper: the clock (it never decreases, and
// a request is stamped after a tick, above it).
func (n *Node) StampFloor() (int, bool) { return n.clock, true }

// AppendStamps implements node.Stamper: the outstanding request's
// timestamp (while WANTED or HELD), the lock's and the queued requests'.
func (n *Node) AppendStamps(ts []int) []int {
	if n.state != StateReleased {
		ts = append(ts, n.reqT)
	}
	if n.lock != nil {
		ts = append(ts, n.lock.T)
	}
	for _, r := range n.waiting {
		ts = append(ts, r.T)
	}
	for _, m := range n.local {
		ts = m.AppendStamps(ts)
	}
	return ts
}

// RenameStamps implements node.Stamper. Timestamps are compared only with
// one another (Before, equality of a message's ReqT with reqT or the
// lock's T) and copied into messages; none is fed to a clock.
func (n *Node) RenameStamps(rename func(int) int) node.Snapshot {
	c := n.Clone().(*Node)
	if c.state != StateReleased {
		c.reqT = rename(c.reqT)
	}
	if c.lock != nil {
		c.lock.T = rename(c.lock.T)
	}
	for k := range c.waiting {
		c.waiting[k].T = rename(c.waiting[k].T)
	}
	for k := range c.local {
		c.local[k] = c.local[k].RenameStamps(rename).(Msg)
	}
	return c
}

// AppendStamps implements node.MsgStamper: the timestamp of the request
// the message concerns (ReqT; T is the sender's clock, only fed to one).
func (m Msg) AppendStamps(ts []int) []int {
	if m.ReqT != 0 {
		ts = append(ts, m.ReqT)
	}
	return ts
}

// RenameStamps implements node.MsgStamper.
func (m Msg) RenameStamps(rename func(int) int) node.Msg {
	if m.ReqT != 0 {
		m.ReqT = rename(m.ReqT)
	}
	return m
}
