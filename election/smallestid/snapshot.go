package smallestid

import "ringlab/engine/node"

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot.
func (n *Node) AppendKey(b []byte) []byte {
	b = append(b, byte(n.state))
	b = node.AppendBool(b, n.sent)
	b = node.AppendInt(b, n.sentMin)
	b = node.AppendInt(b, n.fired)
	b = node.AppendInt(b, n.leader)
	b = node.AppendBool(b, n.hasLeader)
	return node.AppendBool(b, n.complete)
}
