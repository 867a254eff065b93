package handwritten

import (
	"example.com/ringlab-examples/raymond"
	"ringlab/engine"
	"ringlab/engine/node"
)

// Algorithm is raymond.Algorithm with the hand-written twin's nodes.
func Algorithm() engine.Algorithm {
	return raymond.AlgorithmOf(false, func(c raymond.Config, i int) node.Node { return New(c, i) })
}
