package yoyo

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"ringlab/election/internal/electiontest"
	"ringlab/engine/node"
)

// newGraph is the area's test net over cfg's graph, every link FIFO.
func newGraph(t electiontest.TB, cfg Config) *electiontest.Net[*Node] {
	t.Helper()
	f, err := Factory(cfg)
	g := electiontest.Build[*Node](t, f, err, cfg.Topology.N)
	g.FIFOLinks = true
	return g
}

func edgeCount(t node.Topology) int {
	m := 0
	for i := 1; i <= t.N; i++ {
		m += len(t.Neighbors(i))
	}
	return m / 2
}

// check asserts termination, uniqueness and agreement with the
// smallest id, 2m ID and 2m-(n-1) LEADER messages, one vote per YO;
// it returns the leader's node and its iterations.
func check(g *electiontest.Net[*Node], top node.Topology, ids []int) (leader, iters int) {
	g.T.Helper()
	n, m, low := top.N, edgeCount(top), slices.Min(ids)
	for i := 1; i <= n; i++ {
		st := g.Nodes[i].Status()
		if st.State == StateLeader {
			if leader != 0 {
				g.T.Fatalf("ids %v: nodes %d and %d are both LEADER", ids, leader, i)
			}
			leader, iters = i, st.Iter
		}
		if !slices.Equal(g.Leaders(i), []int{low}) || !g.Done[i] {
			g.T.Fatalf("ids %v: node %d leader events %v, status %+v; want exactly [%d] and done", ids, i, g.Leaders(i), st, low)
		}
	}
	if leader == 0 || ids[leader-1] != low {
		g.T.Fatalf("ids %v: leader node %d, want the node with id %d", ids, leader, low)
	}
	if g.Count["ID"] != IDMessages(m) || g.Count["LEADER"] != LeaderMessages(n, m) || g.Count["YO"] != g.Count["YES"]+g.Count["NO"] {
		g.T.Fatalf("ids %v: counts %v; want 2m = %d ID, 2m-(n-1) = %d LEADER, one vote per YO", ids, g.Count, IDMessages(m), LeaderMessages(n, m))
	}
	return leader, iters
}

func mustGraph(t electiontest.TB, n int, edges [][2]int) node.Topology {
	t.Helper()
	top, err := node.Graph(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return top
}

func grid(t electiontest.TB, rows, cols int) node.Topology {
	edges := node.GridEdges(rows, cols)
	return mustGraph(t, rows*cols, edges)
}

// Exact runs worked by hand (the rules and the pruning in the package doc).
func TestSmallGraphs(t *testing.T) {
	tests := []struct {
		name   string
		top    node.Topology
		ids    []int
		leader int
		iters  int
		want   map[string]int
	}{
		{"a lone node leads at once", mustGraph(t, 1, nil), []int{9}, 1, 0, map[string]int{}},
		{"an edge: the sink is a leaf", mustGraph(t, 2, [][2]int{{1, 2}}), []int{2, 1}, 2, 1,
			map[string]int{"ID": 2, "YO": 1, "YES": 1, "LEADER": 1}},
		// 3 gets 1 from nodes 1 and 2: keeps 1, prunes 2, is then a leaf;
		// 2, its out-edge pruned, is a leaf too.
		{"triangle: duplicates pruned", node.Ring(3), []int{1, 2, 3}, 1, 1,
			map[string]int{"ID": 6, "YO": 3, "YES": 3, "LEADER": 4}},
		// Sources 1 and 2; both sinks vote NO to 2, which becomes a sink;
		// iteration 2 has the single source 1 and collapses.
		{"ring of 4, two sources", node.Ring(4), []int{1, 3, 2, 4}, 1, 2,
			map[string]int{"ID": 8, "YO": 8, "YES": 6, "NO": 2, "LEADER": 5}},
		{"complete graph of 4", node.Complete(4), []int{4, 3, 2, 1}, 4, 1,
			map[string]int{"ID": 12, "YO": 6, "YES": 6, "LEADER": 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGraph(t, Config{Topology: tt.top, Ids: tt.ids})
			g.Start(1)
			g.Run()
			leader, iters := check(g, tt.top, tt.ids)
			if leader != tt.leader || iters != tt.iters || fmt.Sprint(g.Count) != fmt.Sprint(tt.want) {
				t.Fatalf("leader node %d after %d iterations, counts %v; want node %d after %d, %v",
					leader, iters, g.Count, tt.leader, tt.iters, tt.want)
			}
		})
	}
}

// Families of graphs, random ids, random starters and delivery orders.
func TestFamilies(t *testing.T) {
	families := []struct {
		name string
		gen  func(t *rapid.T) node.Topology
	}{
		{"ring", func(t *rapid.T) node.Topology { return node.Ring(rapid.IntRange(1, 12).Draw(t, "n")) }},
		{"grid", func(t *rapid.T) node.Topology {
			return grid(t, rapid.IntRange(1, 4).Draw(t, "rows"), rapid.IntRange(1, 4).Draw(t, "cols"))
		}},
		{"complete", func(t *rapid.T) node.Topology { return node.Complete(rapid.IntRange(1, 7).Draw(t, "n")) }},
		{"random connected", randomConnected},
	}
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				top := f.gen(t)
				n, m := top.N, edgeCount(top)
				ids := rapid.SliceOfNDistinct(rapid.IntRange(1, 1000), n, n, rapid.ID).Draw(t, "ids")
				starters := rapid.SliceOfNDistinct(rapid.IntRange(1, n), 1, n, rapid.ID).Draw(t, "starters")
				g := newGraph(t, Config{Topology: top, Ids: ids})
				g.Pick = func(k int) int { return rapid.IntRange(0, k-1).Draw(t, "pick") }
				g.Start(starters...)
				g.Run()
				_, iters := check(g, top, ids)
				// O(m log n), loosely: every iteration costs at most 2m.
				bound := IterationBound(n)
				if phase2 := g.Count["YO"] + g.Count["YES"] + g.Count["NO"]; iters > bound || phase2 > 2*m*bound {
					t.Fatalf("%d iterations, %d phase-2 messages; want at most %d and 2m*%d = %d", iters, phase2, bound, bound, 2*m*bound)
				}
			})
		})
	}
}

// randomConnected draws a random spanning tree plus random extra edges.
func randomConnected(t *rapid.T) node.Topology {
	n := rapid.IntRange(1, 12).Draw(t, "n")
	var edges [][2]int
	for i := 2; i <= n; i++ {
		edges = append(edges, [2]int{rapid.IntRange(1, i-1).Draw(t, "parent"), i})
	}
	if n > 1 {
		for range rapid.IntRange(0, 2*n).Draw(t, "extra edges") {
			a, b := rapid.IntRange(1, n).Draw(t, "a"), rapid.IntRange(1, n).Draw(t, "b")
			if a != b {
				edges = append(edges, [2]int{a, b})
			}
		}
	}
	return mustGraph(t, n, edges)
}

// The chapter: "partitions of the network give two leaders". The partition is
// a disconnected topology, accepted only with AllowDisconnected, and a
// starter in each piece (a piece nobody starts never wakes).
func TestPartitionGivesTwoLeaders(t *testing.T) {
	edges := [][2]int{{1, 2}, {2, 3}, {3, 1}, {4, 5}, {5, 6}, {6, 4}} // two triangles
	top := mustGraph(t, 6, edges)
	ids := []int{30, 10, 20, 60, 50, 40}
	if _, err := Factory(Config{Topology: top, Ids: ids}); err == nil {
		t.Fatal("a disconnected graph was accepted without AllowDisconnected")
	}
	g := newGraph(t, Config{Topology: top, Ids: ids, AllowDisconnected: true})
	g.Start(1, 4)
	g.Run()
	for i, want := range []int{0, 10, 10, 10, 40, 40, 40} {
		if i > 0 && !slices.Equal(g.Leaders(i), []int{want}) {
			t.Fatalf("node %d followed %v, want [%d]", i, g.Leaders(i), want)
		}
	}
	if g.Nodes[2].state != StateLeader || g.Nodes[6].state != StateLeader {
		t.Fatalf("want nodes 2 and 6 both LEADER, got %s and %s", g.Nodes[2].state, g.Nodes[6].state)
	}
}

func TestConfigErrors(t *testing.T) {
	ring := node.Ring(3)
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no graph", Config{Ids: []int{1}, Index: 1}},
		{"too few ids", Config{Topology: ring, Ids: []int{1, 2}, Index: 1}},
		{"duplicate id", Config{Topology: ring, Ids: []int{1, 2, 1}, Index: 1}},
		{"zero id", Config{Topology: ring, Ids: []int{0, 2, 3}, Index: 1}},
		{"disconnected", Config{Topology: mustGraph(t, 3, [][2]int{{1, 2}}), Ids: []int{1, 2, 3}, Index: 1}},
		{"index past the graph", Config{Topology: ring, Ids: []int{1, 2, 3}, Index: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cfg); err == nil {
				t.Fatalf("New(%+v) accepted it", tt.cfg)
			}
		})
	}
}
