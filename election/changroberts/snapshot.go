package changroberts

import "ringlab/engine/node"

// Clone implements node.Snapshot.
//
// Hand-written: the check is 1.31x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=chang-roberts).
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot.
//
// Hand-written: the check is 1.31x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=chang-roberts).
func (n *Node) AppendKey(b []byte) []byte {
	b = append(b, byte(n.state))
	b = node.AppendInt(b, n.leader)
	b = node.AppendBool(b, n.sentOwn)
	b = node.AppendBool(b, n.hasLeader)
	return node.AppendBool(b, n.complete)
}
