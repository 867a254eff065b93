package raymond

import "fmt"

// Tree is a fixed spanning tree over nodes 1..N, given by parent
// pointers: t[i-1] is node i's parent, and 0 marks the root, the node that
// starts holding the token. Every node's first Holder is its parent, so
// that at the start every node points towards the token.
type Tree []int

// Line is the path 1 - 2 - ... - n rooted at node 1: the tree of the
// longest diameter (n-1), on which a request from the far end costs the
// most messages.
func Line(n int) Tree {
	t := make(Tree, n)
	for i := 2; i <= n; i++ {
		t[i-1] = i - 1
	}
	return t
}

// Star is node 1 linked to every other node, rooted at node 1: the tree
// of diameter 2 (for n >= 3).
func Star(n int) Tree {
	t := make(Tree, n)
	for i := 2; i <= n; i++ {
		t[i-1] = 1
	}
	return t
}

// Binary is the balanced binary tree rooted at node 1: node i's parent is
// i/2, so its diameter grows as 2·log2(n).
func Binary(n int) Tree {
	t := make(Tree, n)
	for i := 2; i <= n; i++ {
		t[i-1] = i / 2
	}
	return t
}

// Edges lists the tree's edges, each as {parent, child}, by child.
func (t Tree) Edges() [][2]int {
	var es [][2]int
	for i, p := range t {
		if p != 0 {
			es = append(es, [2]int{p, i + 1})
		}
	}
	return es
}

// Validate reports whether t is a tree over 1..len(t): one root, every
// parent a node, and every node reaches the root without a cycle.
func (t Tree) Validate() error {
	if len(t) < 1 {
		return fmt.Errorf("a tree needs at least one node")
	}
	roots := 0
	for i, p := range t {
		switch {
		case p == 0:
			roots++
		case p < 0 || p > len(t):
			return fmt.Errorf("node %d: parent %d is not a node 1..%d", i+1, p, len(t))
		case p == i+1:
			return fmt.Errorf("node %d is its own parent", p)
		}
	}
	if roots != 1 {
		return fmt.Errorf("a tree has one root (parent 0), this one has %d", roots)
	}
	for i := 1; i <= len(t); i++ {
		if t.depth(i) < 0 {
			return fmt.Errorf("node %d does not reach the root: its parents make a cycle", i)
		}
	}
	return nil
}

// Root is the node whose parent is 0.
func (t Tree) Root() int {
	for i, p := range t {
		if p == 0 {
			return i + 1
		}
	}
	return 0
}

// depth is the edges from node i up to the root, -1 on a cycle.
func (t Tree) depth(i int) int {
	d := 0
	for p := t[i-1]; p != 0; p = t[p-1] {
		if d++; d >= len(t) {
			return -1
		}
	}
	return d
}

// Distance is the number of edges between nodes a and b of a valid tree.
func (t Tree) Distance(a, b int) int {
	da, db := t.depth(a), t.depth(b)
	d := 0
	for ; da > db; da-- {
		a, d = t[a-1], d+1
	}
	for ; db > da; db-- {
		b, d = t[b-1], d+1
	}
	for a != b {
		a, b, d = t[a-1], t[b-1], d+2
	}
	return d
}

// Diameter is the longest distance between two nodes of a valid tree.
func (t Tree) Diameter() int {
	longest := 0
	for a := 1; a <= len(t); a++ {
		for b := a + 1; b <= len(t); b++ {
			longest = max(longest, t.Distance(a, b))
		}
	}
	return longest
}
