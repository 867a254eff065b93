package quorum

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot. The copy shares the node's slices: a
// step never changes one in place, it builds a new one.
func (n *Node) Clone() node.Node {
	c := *n
	return &c
}

// AppendKey implements node.Snapshot: the coordinator's vote and queue,
// the participant's request and votes (the configuration is fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendBool(b, n.busy)
	b = node.AppendInt(node.AppendInt(b, n.holder.part), n.holder.seq)
	b = node.AppendInt(b, len(n.queue))
	for _, q := range n.queue {
		b = node.AppendInt(node.AppendInt(b, q.part), q.seq)
	}
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.seq)
	b = node.AppendInt(b, len(n.oks))
	for _, ok := range n.oks {
		b = node.AppendBool(b, ok)
	}
	b = node.AppendInt(b, n.nOK)
	b = node.AppendInt(b, n.pending)
	return node.AppendBool(b, n.backoff)
}

// AppendIDs implements node.IDRenamer: a request is named by its
// participant (the owner) and sequence number, which nodes only compare
// for equality, and a participant makes up its next one as its current
// plus one. The ids a node depends on: a coordinator's holder while BUSY
// and its queue; a participant's current sequence number (the greatest of
// its own, kept so that the next is new).
func (n *Node) AppendIDs(ids []node.ID) ([]node.ID, bool) {
	if n.IsCoordinator() {
		if n.busy {
			ids = append(ids, node.ID{Owner: n.holder.part, N: n.holder.seq})
		}
		for _, q := range n.queue {
			ids = append(ids, node.ID{Owner: q.part, N: q.seq})
		}
		return ids, true
	}
	if n.seq > 0 {
		ids = append(ids, node.ID{Owner: n.cfg.Index, N: n.seq})
	}
	return ids, true
}

// RenameIDs implements node.IDRenamer. Made canonical, as no step reads
// them before they are set again: a FREE coordinator's last holder, and a
// participant's votes (oks, nOK) unless it is collecting them (WANTED and
// not backing off; ask clears them).
func (n *Node) RenameIDs(rename func(node.ID) int) node.Snapshot {
	c := n.Clone().(*Node)
	if c.IsCoordinator() {
		if c.busy {
			c.holder.seq = rename(node.ID{Owner: c.holder.part, N: c.holder.seq})
		} else {
			c.holder = reqID{}
		}
		c.queue = slices.Clone(c.queue)
		for k, q := range c.queue {
			c.queue[k].seq = rename(node.ID{Owner: q.part, N: q.seq})
		}
		return c
	}
	if c.seq > 0 {
		c.seq = rename(node.ID{Owner: c.cfg.Index, N: c.seq})
	}
	if c.state != StateWanted || c.backoff {
		c.oks = make([]bool, len(c.oks))
		c.nOK = 0
	}
	return c
}

// AppendIDs implements node.MsgIDRenamer: the request the message is about.
func (m Msg) AppendIDs(ids []node.ID) []node.ID {
	if m.Seq > 0 {
		ids = append(ids, node.ID{Owner: m.Part, N: m.Seq})
	}
	return ids
}

// RenameIDs implements node.MsgIDRenamer.
func (m Msg) RenameIDs(rename func(node.ID) int) node.Msg {
	if m.Seq > 0 {
		m.Seq = rename(node.ID{Owner: m.Part, N: m.Seq})
	}
	return m
}
