package election

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/cliutil"
)

// The parsers of the election flags: whatever the input, no panic, a
// usage error (exit 2) on one line, and what they accept reads back from
// its canonical form.

func usageOK(t *testing.T, what string, err error) {
	t.Helper()
	if cliutil.Code(err) != cliutil.ExitUsage || strings.Contains(err.Error(), "\n") {
		t.Fatalf("%s: %v is not a one-line usage error", what, err)
	}
}

func join(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}

// FuzzIDs covers --ids: parseIDs, then checkIDs.
func FuzzIDs(f *testing.F) {
	for _, s := range []string{"5,3,7,1,4", "1", "1,1", "0,-3", " 2 , 4", "", ",", "9999999999999999999999"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, positive bool) {
		ids, err := parseIDs(s)
		if err != nil {
			usageOK(t, s, err)
			return
		}
		if err := checkIDs(ids, positive); err != nil {
			usageOK(t, s, err)
			return
		}
		seen := map[int]bool{}
		for _, id := range ids {
			if seen[id] || positive && id < 1 {
				t.Fatalf("%q: accepted %v", s, ids)
			}
			seen[id] = true
		}
		back, err := parseIDs(join(ids))
		if err != nil || !slices.Equal(back, ids) {
			t.Fatalf("%q: %v does not round-trip: %v, %v", s, ids, back, err)
		}
	})
}

func FuzzInitiators(f *testing.F) {
	for _, s := range []string{"1", "all", "1,3", "3,1,3", "0", " all ", "", "x"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = 1 + abs(n)%1000
		got, err := parseInitiators(s, n)
		if err != nil {
			usageOK(t, s, err)
			return
		}
		seen := map[int]bool{}
		for _, i := range got {
			if i < 1 || i > n || seen[i] {
				t.Fatalf("%q (n=%d): accepted %v", s, n, got)
			}
			seen[i] = true
		}
		back, err := parseInitiators(join(got), n)
		if err != nil || !slices.Equal(back, got) {
			t.Fatalf("%q: %v does not round-trip: %v, %v", s, got, back, err)
		}
	})
}

// FuzzGraph covers yoyo's --graph: an accepted edge list builds a graph
// (an error there would be reported as an internal one, exit 1).
func FuzzGraph(f *testing.F) {
	for _, s := range []string{"1-2,2-3,3-1", "1-2,2-1", "1-1", "1-", "-", "1-2000001", " 4 - 2 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		edges, n, err := parseEdges(s)
		if err != nil {
			usageOK(t, s, err)
			return
		}
		if n > 10_000 {
			return // a valid but big graph: building it is not what this checks
		}
		topo, err := graphOf(n, edges)
		if err != nil || topo.N != n {
			t.Fatalf("%q: accepted edges %v on %d nodes, but the graph fails: %v", s, edges, n, err)
		}
		parts := make([]string, len(edges))
		for i, e := range edges {
			parts[i] = fmt.Sprintf("%d-%d", e[0], e[1])
		}
		back, n2, err := parseEdges(strings.Join(parts, ","))
		if err != nil || n2 != n || !slices.Equal(back, edges) {
			t.Fatalf("%q: does not round-trip: %v %d %v", s, back, n2, err)
		}
	})
}

// FuzzTopology covers --topology and --layout by name: a known name on n
// nodes gives a connected graph (or a permutation of 1..n), anything else
// a usage error.
func FuzzTopology(f *testing.F) {
	for _, s := range []string{"ring", "grid", "random", "ascending", "descending", "", "Ring"} {
		f.Add(s, 7, uint64(1))
	}
	f.Fuzz(func(t *testing.T, name string, n int, seed uint64) {
		n = 1 + abs(n)%300
		topo, err := generate(name, n, seed)
		if err != nil {
			usageOK(t, name, err)
		} else if topo.N != n || !topo.Connected() {
			t.Fatalf("--topology %s on %d nodes: %d nodes, connected %v", name, n, topo.N, topo.Connected())
		}
		ids, err := layout(name, n, seed)
		if err != nil {
			usageOK(t, name, err)
			return
		}
		sorted := slices.Sorted(slices.Values(ids))
		for i, id := range sorted {
			if id != i+1 {
				t.Fatalf("--layout %s on %d nodes: not a permutation of 1..n: %v", name, n, ids)
			}
		}
	})
}

// FuzzCompareLists covers compare's --nodes, --algos and --layout.
func FuzzCompareLists(f *testing.F) {
	for _, s := range []string{"8,64,512,4096", "0", "65537", "ring,franklin", "worst,best", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if sizes, err := parseSizes(s); err != nil {
			usageOK(t, s, err)
		} else {
			for _, n := range sizes {
				if n < 1 || n > 65536 {
					t.Fatalf("%q: accepted size %d", s, n)
				}
			}
			if back, err := parseSizes(join(sizes)); err != nil || !slices.Equal(back, sizes) {
				t.Fatalf("%q: does not round-trip", s)
			}
		}
		for _, allowed := range [][]string{comparedNames(), compareLayouts} {
			got, err := listOf(s, allowed, "--algos")
			if err != nil {
				usageOK(t, s, err)
				continue
			}
			for _, g := range got {
				if !slices.Contains(allowed, g) {
					t.Fatalf("%q: accepted %q", s, g)
				}
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}
