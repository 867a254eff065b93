package bully

import "ringlab/engine/node"

// Clone implements node.Snapshot (the configuration is shared: it is
// never written after New).
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot: state and leader.
func (n *Node) AppendKey(b []byte) []byte {
	return node.AppendInt(node.AppendString(b, string(n.state)), n.leader)
}
