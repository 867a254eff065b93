package central

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

// AppendKey implements node.Snapshot: the participant's and the
// coordinator's state (the configuration is fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.pending)
	b = node.AppendBool(b, n.freeing)
	b = node.AppendBool(b, n.busy)
	b = node.AppendInt(b, n.holder)
	return node.AppendInts(b, n.queue)
}
