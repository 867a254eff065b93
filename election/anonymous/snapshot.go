package anonymous

import "ringlab/engine/node"

// Clone implements node.Snapshot.
func (n *Node) Clone() node.Node { c := *n; return &c }

// AppendKey implements node.Snapshot: C and whether it relayed.
func (n *Node) AppendKey(b []byte) []byte {
	return node.AppendBool(append(b, byte(n.state)), n.relayed)
}

// Rename implements node.Renamer for the rotations of the ring
// (engine.Symmetry): the index and the right neighbour are the only node
// indices a process holds.
func (n *Node) Rename(perm []int) node.Snapshot {
	c := *n
	c.index, c.next = perm[n.index], perm[n.next]
	return &c
}

// Rename implements node.MsgRenamer: a vote carries nothing.
func (m VoteForMe) Rename([]int) node.Msg { return m }

// Rename implements node.MsgRenamer: an announcement carries nothing.
func (m WeHaveALeader) Rename([]int) node.Msg { return m }
