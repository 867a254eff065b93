package election

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"ringlab/engine/cliutil"
	"ringlab/engine/node"
)

// Generated topologies for yoyo (--topology).
var topologies = []string{"ring", "grid", "random"}

// parseEdges reads an edge list like "1-2,2-3,3-1" and returns the edges
// and the largest node index named.
func parseEdges(text string) ([][2]int, int, error) {
	var edges [][2]int
	n := 0
	for f := range strings.SplitSeq(text, ",") {
		f = strings.TrimSpace(f)
		as, bs, ok := strings.Cut(f, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(as))
		b, err2 := strconv.Atoi(strings.TrimSpace(bs))
		if !ok || err1 != nil || err2 != nil || a < 1 || b < 1 || a > MaxNodes || b > MaxNodes {
			return nil, 0, cliutil.Usagef("--graph: want edges I-J between node indices 1..%d, like 1-2,2-3,3-1; got %q", MaxNodes, f)
		}
		if a == b {
			return nil, 0, cliutil.Usagef("--graph: edge %q joins node %d to itself", f, a)
		}
		edges = append(edges, [2]int{a, b})
		n = max(n, a, b)
	}
	return edges, n, nil
}

// generate builds a ring, a grid (rows x cols as square as n allows) or a
// random connected graph (a random spanning tree plus about n/2 more
// edges, drawn from seed) on n nodes.
func generate(name string, n int, seed uint64) (node.Topology, error) {
	switch name {
	case "ring":
		return node.Ring(n), nil
	case "grid":
		rows := 1
		for r := 1; r*r <= n; r++ {
			if n%r == 0 {
				rows = r
			}
		}
		cols := n / rows
		return graphOf(n, node.GridEdges(rows, cols))
	case "random":
		rng := rand.New(rand.NewPCG(seed, 0x746f706f)) // "topo"
		var edges [][2]int
		for i := 2; i <= n; i++ {
			edges = append(edges, [2]int{1 + rng.IntN(i-1), i})
		}
		for range n / 2 {
			a, b := 1+rng.IntN(n), 1+rng.IntN(n)
			if a != b {
				edges = append(edges, [2]int{a, b})
			}
		}
		return graphOf(n, edges)
	}
	return node.Topology{}, cliutil.Usagef("--topology: unknown topology %q (want %s)", name, strings.Join(topologies, ", "))
}

func graphOf(n int, edges [][2]int) (node.Topology, error) {
	if n == 1 {
		return node.Ring(1), nil
	}
	t, err := node.Graph(n, edges)
	if err != nil {
		return t, fmt.Errorf("internal: %w", err)
	}
	return t, nil
}

// edgeCount is m, the number of undirected edges.
func edgeCount(t node.Topology) int {
	m := 0
	for i := 1; i <= t.N; i++ {
		m += len(t.Neighbors(i))
	}
	return m / 2
}
