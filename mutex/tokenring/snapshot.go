package tokenring

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot. The copy shares counted, which a step
// never changes in place.
func (n *Node) Clone() node.Node {
	c := *n
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

// Rename implements node.Renamer for the rotations of the ring
// (engine.Symmetry): the node's index and the start node are renamed, the
// request counts move with the nodes. A token's Origin is its name, not an
// address: it is left alone, which is a symmetry only while no node
// creates a token of its own (RegenTimeout 0; Symmetry says so).
func (n *Node) Rename(perm []int) node.Snapshot {
	c := n.Clone().(*Node)
	c.cfg.Index, c.cfg.StartWith = perm[n.cfg.Index], perm[n.cfg.StartWith]
	if n.cfg.Requests != nil {
		c.cfg.Requests = make([]int, len(n.cfg.Requests))
		for i, r := range n.cfg.Requests {
			c.cfg.Requests[perm[i+1]-1] = r
		}
	}
	return c
}

// Rename implements node.MsgRenamer: the TOKEN carries no node index (its
// Origin is its name; see Node.Rename).
func (m Msg) Rename([]int) node.Msg { return m }

// Symmetric reports whether a ring of cfg is symmetric under its rotations
// (engine.Symmetry): no node ever creates a token (RegenTimeout 0) and
// every node makes as many requests.
func Symmetric(cfg Config) bool {
	if cfg.RegenTimeout != 0 {
		return false
	}
	for _, r := range cfg.Requests {
		if r != cfg.Requests[0] {
			return false
		}
	}
	return true
}

// AppendIDs implements node.IDRenamer: a token is named by its origin (the
// owner) and generation, which nodes only compare for equality (a token a
// finished node has counted itself in), and a node makes up its next
// generation as its latest plus one. The ids a node depends on: the token
// it holds, those it has counted, and its latest generation. The first
// token's generation, 0, is never renamed.
func (n *Node) AppendIDs(ids []node.ID) ([]node.ID, bool) {
	if n.holding && n.token.Gen > 0 {
		ids = append(ids, node.ID{Owner: n.token.Origin, N: n.token.Gen})
	}
	for _, c := range n.counted {
		if c[1] > 0 {
			ids = append(ids, node.ID{Owner: c[0], N: c[1]})
		}
	}
	if n.regens > 0 {
		ids = append(ids, node.ID{Owner: n.cfg.Index, N: n.regens})
	}
	return ids, true
}

// RenameIDs implements node.IDRenamer. The token a node no longer holds is
// made canonical: no step reads it before a token is taken again.
func (n *Node) RenameIDs(rename func(node.ID) int) node.Snapshot {
	c := n.Clone().(*Node)
	switch {
	case !c.holding:
		c.token = Msg{}
	case c.token.Gen > 0:
		c.token.Gen = rename(node.ID{Owner: c.token.Origin, N: c.token.Gen})
	}
	c.counted = slices.Clone(c.counted)
	for k, t := range c.counted {
		if t[1] > 0 {
			c.counted[k][1] = rename(node.ID{Owner: t[0], N: t[1]})
		}
	}
	if c.regens > 0 {
		c.regens = rename(node.ID{Owner: c.cfg.Index, N: c.regens})
	}
	return c
}

// AppendIDs implements node.MsgIDRenamer: the token's name.
func (m Msg) AppendIDs(ids []node.ID) []node.ID {
	if m.Gen > 0 {
		ids = append(ids, node.ID{Owner: m.Origin, N: m.Gen})
	}
	return ids
}

// RenameIDs implements node.MsgIDRenamer.
func (m Msg) RenameIDs(rename func(node.ID) int) node.Msg {
	if m.Gen > 0 {
		m.Gen = rename(node.ID{Owner: m.Origin, N: m.Gen})
	}
	return m
}
