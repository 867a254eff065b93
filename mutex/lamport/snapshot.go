package lamport

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node {
	c := *n
	c.queue = slices.Clone(n.queue)
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
