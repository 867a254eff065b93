package raymond

import (
	"fmt"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
)

// NewNode builds node i of the system c describes, in its initial state:
// New, or a twin of it (package handwritten).
type NewNode func(c Config, i int) node.Node

// Algorithm is Raymond's algorithm for every ringlab tool, its nodes
// built by New: the mutex kit's workload and properties (a Token
// algorithm: one token is judged too), on the tree --tree names.
func Algorithm() engine.Algorithm { return AlgorithmOf(false, derived) }

func derived(c Config, i int) node.Node { return New(c, i) }

// trees are the shapes --tree names, each rooted at node 1.
var trees = map[string]func(n int) Tree{"line": Line, "star": Star, "binary": Binary}

// AlgorithmOf is Raymond's algorithm with its nodes built by newNode;
// forgetAsked plants the bug (Config.ForgetAsked).
func AlgorithmOf(forgetAsked bool, newNode NewNode) engine.Algorithm {
	return kit.Spec{
		Name:  "raymond",
		Usage: "Raymond's tree-based token algorithm (1989): REQUEST up the tree, PRIVILEGE down, at most 2·D per entry",
		Description: "The nodes form a spanning tree rooted at node 1, which starts with the token (--tree).\n" +
			"Each node points to the neighbour towards the token, queues requests and asks once.",
		Example:      "raymond raymond --nodes 7 --tree binary --seed 1 --format none",
		CheckExample: "raymond check raymond --nodes 3 --requests 0 --liveness",
		NodesUsage:   "nodes of the tree, all asking for the critical section",
		Params: []engine.Param{{Name: "tree", Default: "line",
			Usage: "the spanning tree, rooted at node 1: line (1-2-...-N), star (node 1 linked to all) or binary (node i's parent is i/2)"}},
		Plan: func(p engine.Params, n, _ int) (kit.Plan, error) {
			shape, ok := trees[p.String("tree")]
			if !ok {
				return kit.Plan{}, cliutil.Usagef("--tree must be line, star or binary, got %q", p.String("tree"))
			}
			c := Config{Tree: shape(n), ForgetAsked: forgetAsked}
			return kit.Plan{
				Kind: kit.Token, Nodes: n, Messages: MessageTypes(), TokenType: Privilege{}.Type(),
				Factory: func(i int) (node.Node, error) {
					if i < 1 || i > n {
						return nil, fmt.Errorf("raymond: node index must be 1..%d, got %d", n, i)
					}
					return newNode(c, i), nil
				},
				Start:    []node.Action{{At: 0, Node: c.Tree.Root(), Cmd: node.CmdStart}},
				Promise:  "each node's own queue order",
				Topology: trace.TopoGraph, Edges: c.Tree.Edges(),
				Theory: fmt.Sprintf("at most 2·D = %d (D = %d, the tree's diameter)", 2*c.Tree.Diameter(), c.Tree.Diameter()),
			}, nil
		},
	}.Algorithm()
}
