package anonymous

import "ringlab/engine/node"

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot: C and whether it relayed.
func (n *Node) AppendKey(b []byte) []byte {
	return node.AppendBool(append(b, byte(n.state)), n.relayed)
}
