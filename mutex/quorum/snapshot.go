package quorum

import "ringlab/engine/node"

// Clone implements node.Snapshot. The copy shares the node's slices: a
// step never changes one in place, it builds a new one.
//
// Hand-written: the check is 1.17x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=quorum).
func (n *Node) Clone() node.Node {
	c := *n
	return &c
}

// AppendKey implements node.Snapshot: the coordinator's vote and queue,
// the participant's request and votes (the configuration is fixed).
//
// Hand-written: the check is 1.17x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=quorum).
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

// Values implements node.Valuer: a request is named by its participant
// (the owner) and sequence number, which nodes only compare for equality,
// and a participant makes up its next one as its current plus one. The ids
// a node depends on: a coordinator's holder while BUSY and its queue; a
// participant's current sequence number (the greatest of its own, kept so
// that the next is new). Unused, as no step reads them before they are set
// again: a FREE coordinator's last holder, and a participant's votes (oks,
// nOK) unless it is collecting them (WANTED and not backing off; ask
// clears them).
func (n *Node) Values(v *node.Values) {
	if n.IsCoordinator() {
		if n.busy {
			v.ID(n.holder.part, &n.holder.seq)
		} else {
			v.Unused(&n.holder)
		}
		for k := range n.queue {
			v.ID(n.queue[k].part, &n.queue[k].seq)
		}
		return
	}
	v.ID(n.cfg.Index, &n.seq)
	if n.state != StateWanted || n.backoff {
		v.Unused(&n.oks)
		v.Unused(&n.nOK)
	}
}

// Values implements node.Valuer: the request the message is about.
func (m *Msg) Values(v *node.Values) { v.ID(m.Part, &m.Seq) }
