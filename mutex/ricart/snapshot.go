package ricart

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node {
	c := *n
	c.replied = slices.Clone(n.replied)
	c.deferred = slices.Clone(n.deferred)
	c.later = slices.Clone(n.later)
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
