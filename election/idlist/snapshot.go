package idlist

import "ringlab/engine/node"

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot.
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendBool(b, n.started)
	b = node.AppendBool(b, n.relayed)
	b = node.AppendBool(b, n.decided)
	return node.AppendInt(b, n.leader)
}
