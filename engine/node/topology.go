package node

import (
	"fmt"
	"slices"
)

// Topology is who may talk to whom: an undirected graph over nodes 1..N,
// with the ring's direction kept for ring algorithms.
type Topology struct {
	N   int     // the number of nodes
	adj [][]int // adj[i] sorted, 1-based; adj[0] unused
}

// Ring is a ring of n nodes: i's successor is i+1, n's is 1. Both
// neighbours are in Neighbors; Next and Prev give the direction.
func Ring(n int) Topology {
	edges := make([][2]int, 0, n)
	for i := 1; i <= n; i++ {
		edges = append(edges, [2]int{i, i%n + 1})
	}
	return mustGraph(n, edges)
}

// Complete is the complete graph on n nodes.
func Complete(n int) Topology {
	t := Topology{N: n, adj: make([][]int, n+1)}
	for i := 1; i <= n; i++ {
		t.adj[i] = make([]int, 0, n-1)
		for j := 1; j <= n; j++ {
			if j != i {
				t.adj[i] = append(t.adj[i], j)
			}
		}
	}
	return t
}

// Graph builds an undirected graph on n nodes from an edge list. Self-loops,
// indices out of 1..n are errors; duplicate edges are merged.
func Graph(n int, edges [][2]int) (Topology, error) {
	if n < 1 {
		return Topology{}, fmt.Errorf("a graph needs at least 1 node, got %d", n)
	}
	t := Topology{N: n, adj: make([][]int, n+1)}
	for _, e := range edges {
		a, b := e[0], e[1]
		if a < 1 || a > n || b < 1 || b > n {
			return Topology{}, fmt.Errorf("edge %d-%d: nodes are numbered 1..%d", a, b, n)
		}
		if a == b {
			return Topology{}, fmt.Errorf("edge %d-%d: a node cannot be its own neighbour", a, b)
		}
		t.adj[a] = append(t.adj[a], b)
		t.adj[b] = append(t.adj[b], a)
	}
	for i := range t.adj {
		slices.Sort(t.adj[i])
		t.adj[i] = slices.Compact(t.adj[i])
	}
	return t, nil
}

func mustGraph(n int, edges [][2]int) Topology {
	if n == 1 {
		return Topology{N: 1, adj: make([][]int, 2)}
	}
	t, err := Graph(n, edges)
	if err != nil {
		panic(err) // unreachable: callers build valid edges
	}
	return t
}

// Next is i's clockwise successor on a ring of N nodes.
func (t Topology) Next(i int) int { return i%t.N + 1 }

// Prev is i's counter-clockwise neighbour on a ring of N nodes.
func (t Topology) Prev(i int) int { return (i+t.N-2)%t.N + 1 }

// Neighbors returns i's neighbours in increasing order. The slice is shared:
// do not modify it.
func (t Topology) Neighbors(i int) []int { return t.adj[i] }

// Connected reports whether every node can reach every other.
func (t Topology) Connected() bool {
	if t.N <= 1 {
		return true
	}
	seen := make([]bool, t.N+1)
	stack := []int{1}
	seen[1] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range t.adj[v] {
			if !seen[w] {
				seen[w] = true
				count++
				stack = append(stack, w)
			}
		}
	}
	return count == t.N
}

// GridEdges are the edges of a rows × cols grid: node (r, c), from 0, is
// r*cols + c + 1, joined to its right and lower neighbours.
func GridEdges(rows, cols int) [][2]int {
	var edges [][2]int
	for r := range rows {
		for c := range cols {
			i := r*cols + c + 1
			if c+1 < cols {
				edges = append(edges, [2]int{i, i + 1})
			}
			if r+1 < rows {
				edges = append(edges, [2]int{i, i + cols})
			}
		}
	}
	return edges
}
