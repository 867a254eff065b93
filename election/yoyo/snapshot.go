package yoyo

import (
	"maps"
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
//
// Hand-written: the check is 1.49x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=yoyo).
func (n *Node) Clone() node.Node {
	c := *n
	c.dir = maps.Clone(n.dir)
	if n.vals != nil {
		c.vals = make(map[int]map[int]int, len(n.vals))
		for it, m := range n.vals {
			c.vals[it] = maps.Clone(m)
		}
	}
	c.votes = maps.Clone(n.votes)
	return &c
}

// AppendKey implements node.Snapshot: every map in key order (the
// neighbours and the id are fixed).
//
// Hand-written: the check is 1.49x faster than with the derived copy and
// key (median of BenchmarkKeys/algo=yoyo).
func (n *Node) AppendKey(b []byte) []byte {
	b = appendIntMap(b, n.dir)
	b = node.AppendString(b, string(n.state))
	b = node.AppendBool(b, n.started)
	b = node.AppendInt(b, n.leader)
	b = node.AppendBool(b, n.done)
	b = node.AppendInt(b, n.iter)
	b = node.AppendBool(b, n.waiting)
	its := slices.Sorted(maps.Keys(n.vals))
	b = node.AppendInt(b, len(its))
	for _, it := range its {
		b = appendIntMap(node.AppendInt(b, it), n.vals[it])
	}
	b = node.AppendInt(b, n.min)
	vs := slices.Sorted(maps.Keys(n.votes))
	b = node.AppendInt(b, len(vs))
	for _, k := range vs {
		m := n.votes[k]
		b = node.AppendInt(node.AppendInt(node.AppendInt(node.AppendInt(b, k), int(m.Kind)), m.Id), m.Iter)
		b = node.AppendBool(b, m.Prune)
	}
	return b
}

func appendIntMap(b []byte, m map[int]int) []byte {
	keys := slices.Sorted(maps.Keys(m))
	b = node.AppendInt(b, len(keys))
	for _, k := range keys {
		b = node.AppendInt(node.AppendInt(b, k), m[k])
	}
	return b
}
