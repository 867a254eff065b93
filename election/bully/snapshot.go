package bully

import "ringlab/engine/node"

// Clone implements node.Snapshot (the configuration is shared: it is
// never written after New).
//
// Hand-written: the check is 1.39x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=bully).
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot: state and leader.
//
// Hand-written: the check is 1.39x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=bully).
func (n *Node) AppendKey(b []byte) []byte {
	return node.AppendInt(node.AppendString(b, string(n.state)), n.leader)
}
