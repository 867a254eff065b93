package franklin

import (
	"maps"
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
//
// Hand-written: the check is 1.46x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=franklin).
func (n *Node) Clone() node.Node {
	c := *n
	for s := range n.got {
		c.got[s] = maps.Clone(n.got[s])
	}
	return &c
}

// AppendKey implements node.Snapshot: the ids received per side and round
// in round order.
//
// Hand-written: the check is 1.46x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=franklin).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendString(b, string(n.state))
	b = node.AppendBool(b, n.started)
	b = node.AppendBool(b, n.done)
	b = node.AppendInt(b, n.round)
	b = node.AppendInt(b, n.leader)
	for _, m := range n.got {
		rounds := slices.Sorted(maps.Keys(m))
		b = node.AppendInt(b, len(rounds))
		for _, r := range rounds {
			b = node.AppendInt(node.AppendInt(b, r), m[r])
		}
	}
	return b
}
