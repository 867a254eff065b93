package anonymous

import "ringlab/engine/node"

// Values implements node.Valuer: the index and the right neighbour are
// the only node indices a process holds (renamed under the rotations of
// the ring, engine.Symmetry).
func (n *Node) Values(v *node.Values) {
	v.Index(&n.index)
	v.Index(&n.next)
}

// Values implements node.Valuer: a vote carries nothing.
func (m *VoteForMe) Values(*node.Values) {}

// Values implements node.Valuer: an announcement carries nothing.
func (m *WeHaveALeader) Values(*node.Values) {}
