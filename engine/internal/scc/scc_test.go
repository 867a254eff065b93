package scc

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// components of a graph given as adjacency lists, each sorted, in the
// order visited.
func find(adj [][]int32, in func(int32) bool) [][]int32 {
	var got [][]int32
	out := func(v int32) int32 { return int32(len(adj[v])) }
	edge := func(v, k int32) (int32, bool) { return adj[v][k], true }
	Components(len(adj), in, out, edge, func(ms []int32) {
		c := slices.Clone(ms)
		slices.Sort(c)
		got = append(got, c)
	})
	return got
}

func TestComponentsSinksFirst(t *testing.T) {
	// 0 -> 1 <-> 2 -> 3 <-> 4, 3 -> 3
	adj := [][]int32{{1}, {2}, {1, 3}, {4, 3}, {3}}
	got := find(adj, nil)
	want := [][]int32{{3, 4}, {1, 2}, {0}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("components %v, want %v", got, want)
	}
	// without vertex 2 the cycle 1-2 is gone and 3-4 is unreachable from 0,
	// but still a component of the subgraph
	got = find(adj, func(v int32) bool { return v != 2 })
	want = [][]int32{{1}, {0}, {3, 4}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("without 2: components %v, want %v", got, want)
	}
}

// TestComponentsAgreeWithReachability: on random graphs, two vertices
// share a component exactly when each reaches the other, and a component
// comes after every component it reaches.
func TestComponentsAgreeWithReachability(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + r.IntN(12)
		adj := make([][]int32, n)
		for v := range adj {
			for range r.IntN(3) {
				adj[v] = append(adj[v], int32(r.IntN(n)))
			}
		}
		reach := make([][]bool, n) // reach[a][b]: a path from a to b (of length >= 0)
		for a := range n {
			reach[a] = make([]bool, n)
			todo := []int32{int32(a)}
			reach[a][a] = true
			for len(todo) > 0 {
				v := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				for _, w := range adj[v] {
					if !reach[a][w] {
						reach[a][w] = true
						todo = append(todo, w)
					}
				}
			}
		}
		comp := make([]int, n)
		for i, c := range find(adj, nil) {
			for _, v := range c {
				comp[v] = i
			}
		}
		for a := range n {
			for b := range n {
				same := reach[a][b] && reach[b][a]
				if same != (comp[a] == comp[b]) {
					t.Fatalf("graph %v: %d and %d: mutual reach %v, same component %v", adj, a, b, same, comp[a] == comp[b])
				}
				if reach[a][b] && comp[b] > comp[a] {
					t.Fatalf("graph %v: %d reaches %d but its component comes first", adj, a, b)
				}
			}
		}
	}
}
