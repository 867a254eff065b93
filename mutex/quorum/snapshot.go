package quorum

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node {
	c := *n
	c.queue = slices.Clone(n.queue)
	c.oks = slices.Clone(n.oks)
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
	b = node.AppendBool(b, n.backoff)
	return node.AppendInt(b, n.attempts)
}
