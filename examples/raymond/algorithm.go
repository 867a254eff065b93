package raymond

import (
	"example.com/ringlab-examples/assignment/mutexlab"
	"ringlab/engine"
	"ringlab/engine/node"
)

// NewNode builds node i of the system c describes, in its initial state:
// New, or a twin of it (package handwritten).
type NewNode func(c Config, i int) node.Node

// Algorithm is Raymond's algorithm for every ringlab tool, on the line
// 1 - 2 - ... - N (node 1 starts with the token), its nodes built by New.
func Algorithm() engine.Algorithm { return AlgorithmOf("raymond", Config{}, derived) }

func derived(c Config, i int) node.Node { return New(c, i) }

// AlgorithmOf is Raymond's algorithm named name, its nodes built by
// newNode from c, with c.Tree set to the line of --nodes nodes.
func AlgorithmOf(name string, c Config, newNode NewNode) engine.Algorithm {
	return mutexlab.Algorithm(name, func(n, i int) node.Node {
		c := c
		c.Tree = Line(n)
		return newNode(c, i)
	}, MessageTypes())
}
