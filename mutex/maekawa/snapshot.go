package maekawa

import (
	"maps"
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node {
	c := *n
	c.local = slices.Clone(n.local)
	c.granted = maps.Clone(n.granted)
	c.inquired = maps.Clone(n.inquired)
	if n.lock != nil {
		l := *n.lock
		c.lock = &l
	}
	c.waiting = slices.Clone(n.waiting)
	return &c
}

// AppendKey implements node.Snapshot: the requester's and the arbiter's
// state, maps in key order (the quorum and the ids are fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendInt(b, n.clock)
	b = node.AppendInt(b, len(n.local))
	for _, m := range n.local {
		b = appendMsg(b, m)
	}
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.reqT)
	b = appendSet(b, n.granted)
	b = appendSet(b, n.inquired)
	b = node.AppendBool(b, n.failed)
	b = node.AppendInt(b, n.later)
	b = node.AppendBool(b, n.lock != nil)
	if n.lock != nil {
		b = appendRequest(b, *n.lock)
	}
	b = node.AppendBool(b, n.asked)
	b = node.AppendInt(b, len(n.waiting))
	for _, r := range n.waiting {
		b = appendRequest(b, r)
	}
	return b
}

func appendMsg(b []byte, m Msg) []byte {
	b = node.AppendString(b, string(m.Kind))
	return node.AppendInt(node.AppendInt(node.AppendInt(b, m.T), m.ReqT), m.ID)
}

func appendRequest(b []byte, r Request) []byte {
	b = node.AppendInt(node.AppendInt(node.AppendInt(b, r.T), r.ID), r.Index)
	return node.AppendBool(b, r.Failed)
}

// appendSet appends the keys whose value is true, ascending.
func appendSet(b []byte, m map[int]bool) []byte {
	keys := make([]int, 0, len(m))
	for k, v := range m {
		if v {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return node.AppendInts(b, keys)
}
