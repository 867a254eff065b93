// Package handwritten is the hand-written twin of package raymond: the
// same node and the same Step, with the copy and the key written by hand
// (node.Snapshot), as every algorithm had to before the engine derived
// them. Its exhaustive checks must count what the derived node's count:
// the tests of package raymond compare the two.
package handwritten

import (
	"slices"

	"example.com/ringlab-examples/raymond"
	"ringlab/engine/node"
)

// Node is raymond.Node with a hand-written Clone and AppendKey.
type Node struct{ raymond.Node }

var _ node.Snapshot = (*Node)(nil)

// New builds node i in its initial state, as raymond.New does.
func New(c raymond.Config, i int) *Node { return &Node{*raymond.New(c, i)} }

// Clone copies the node; the queue is the one field a step changes in
// place, so the copy gets its own.
func (n *Node) Clone() node.Node {
	c := &Node{n.Node}
	c.Queue = slices.Clone(n.Queue)
	return c
}

// AppendKey encodes the fields a step may change: Holder, Queue, Using
// and Asked. Self and ForgetAsked are fixed at construction, so they are
// left out (node.Snapshot allows it).
func (n *Node) AppendKey(b []byte) []byte {
	b = node.AppendInt(b, n.Holder)
	b = node.AppendInts(b, n.Queue)
	return node.AppendBool(node.AppendBool(b, n.Using), n.Asked)
}
