package central

import (
	"slices"

	"ringlab/engine/node"
)

// Clone implements node.Snapshot. The copy shares the queue: a step never
// changes it in place, it builds a new one (enqueue, grant).
func (n *Node) Clone() node.Node {
	c := *n
	return &c
}

// AppendKey implements node.Snapshot: the participant's and the
// coordinator's state (the configuration is fixed).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendString(b, n.state)
	b = node.AppendInt(b, n.pending)
	b = node.AppendBool(b, n.freeing)
	b = node.AppendBool(b, n.busy)
	b = node.AppendInt(b, n.holder)
	return node.AppendInts(b, n.queue)
}

// Rename implements node.Renamer for permutations of the participants
// (engine.Symmetry): the node's index, the holder and the queued
// participants are renamed, the queue keeping its order. The coordinator
// is never moved (Symmetric's group fixes it).
func (n *Node) Rename(perm []int) node.Snapshot {
	c := n.Clone().(*Node)
	c.queue = slices.Clone(c.queue)
	c.cfg.Index, c.cfg.Coordinator, c.holder = perm[n.cfg.Index], perm[n.cfg.Coordinator], perm[n.holder]
	for k, p := range c.queue {
		c.queue[k] = perm[p]
	}
	return c
}

// Rename implements node.MsgRenamer: a message carries only its kind.
func (m Msg) Rename([]int) node.Msg { return m }

// Symmetric returns the participants of cfg that are interchangeable
// (engine.Symmetry): every node but the coordinator, unless Favour tells
// some of them apart.
func Symmetric(cfg Config) []int {
	if cfg.Favour > 1 || cfg.N < 3 {
		return nil
	}
	coord := cfg.Coordinator
	if coord == 0 {
		coord = 1
	}
	var ps []int
	for i := 1; i <= cfg.N; i++ {
		if i != coord {
			ps = append(ps, i)
		}
	}
	return ps
}
