package tokenring

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node {
	c := *n
	c.counted = slices.Clone(n.counted)
	return &c
}

// AppendKey implements node.Snapshot (the configuration is fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.pending)
	if n.cfg.Requests != nil { // without a workload's count, served only counts (Status): no step depends on it
		b = node.AppendInt(b, n.served)
	}
	b = node.AppendInt(node.AppendInt(node.AppendInt(b, n.token.Origin), n.token.Gen), n.token.Finished)
	b = node.AppendBool(b, n.holding)
	b = node.AppendBool(b, n.fresh)
	b = node.AppendInt(b, len(n.counted))
	for _, c := range n.counted {
		b = node.AppendInt(node.AppendInt(b, c[0]), c[1])
	}
	b = node.AppendInt(b, n.regens)
	return node.AppendBool(b, n.finished)
}
