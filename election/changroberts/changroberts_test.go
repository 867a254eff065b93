package changroberts

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"ringlab/election/internal/electiontest"
	"ringlab/engine/node"
)

func newNet(t electiontest.TB, ids []int) *electiontest.Net[*Node] {
	f, err := Factory(ids)
	return electiontest.Build[*Node](t, f, err, len(ids))
}

// checkFinal checks termination, uniqueness and agreement: one
// Leader, the maximum id, its announcement back; every node knows it, done.
func checkFinal(t electiontest.TB, w *electiontest.Net[*Node], ids []int) {
	t.Helper()
	maxID, leaders := slices.Max(ids), 0
	for i := 1; i < len(w.Nodes); i++ {
		st := w.Nodes[i].Status()
		switch {
		case st.State == StateLeader && st.ID == maxID && st.Complete:
			leaders++
		case st.State == StateFollower:
		default:
			t.Errorf("ids %v: node %d ended %+v", ids, i, st)
		}
		if !st.HasLeader || st.Leader != maxID || !w.Done[i] {
			t.Errorf("ids %v: node %d knows leader %d (%v), done %v; want %d", ids, i, st.Leader, st.HasLeader, w.Done[i], maxID)
		}
	}
	if leaders != 1 {
		t.Errorf("ids %v: %d leaders, want 1", ids, leaders)
	}
}

func startAll(w *electiontest.Net[*Node]) {
	for i := 1; i < len(w.Nodes); i++ {
		w.Start(i)
	}
}

// Every node starting: exact election counts, and the
// announcement adds exactly n.
func TestExactCounts(t *testing.T) {
	tests := []struct {
		name     string
		ids      []int
		election int
	}{
		{"one node", []int{42}, 1},
		{"best case: increasing along the ring, 2n-1", []int{1, 2, 3, 4, 5}, 9},
		{"worst case: decreasing along the ring, n(n+1)/2", []int{5, 4, 3, 2, 1}, 15},
		{"worst case rotated", []int{2, 1, 5, 4, 3}, 15},
		{"the specification's default ring", []int{5, 3, 7, 1, 4}, 2 + 1 + 5 + 1 + 1},
		{"three, worst", []int{3, 2, 1}, 6},
		{"three, best", []int{3, 1, 2}, 5},
	}
	for _, tt := range tests {
		w := newNet(t, tt.ids)
		startAll(w)
		w.Run()
		checkFinal(t, w, tt.ids)
		n := len(tt.ids)
		if w.Count[TypeElection] != tt.election || w.Count[TypeElected] != n {
			t.Errorf("%s %v: %v, want %d ELECTION and %d ELECTED", tt.name, tt.ids, w.Count, tt.election, n)
		}
		if e, a := Messages(tt.ids); e != tt.election || a != n {
			t.Errorf("%s: Messages = %d, %d", tt.name, e, a)
		}
	}
}

// The chapter's exercise: over every permutation of 1..n (n <= 7), the count is
// Messages(ids); it is WorstCase(n) exactly when ids decrease in the
// direction of travel and BestCase(n) exactly when they increase (up to
// rotation).
func TestEveryPermutation(t *testing.T) {
	for n := 1; n <= 7; n++ {
		electiontest.ForEachPermutation(n, func(ids []int) {
			w := newNet(t, ids)
			startAll(w)
			w.Run()
			checkFinal(t, w, ids)
			got := w.Count[TypeElection]
			if e, _ := Messages(ids); got != e || w.Count[TypeElected] != n {
				t.Fatalf("ids %v: %v, theory %d", ids, w.Count, e)
			}
			if (got == WorstCase(n)) != rotationOf(ids, -1) || (got == BestCase(n)) != rotationOf(ids, +1) {
				t.Fatalf("ids %v: %d messages; worst %d, best %d", ids, got, WorstCase(n), BestCase(n))
			}
			if got < BestCase(n) || got > WorstCase(n) {
				t.Fatalf("ids %v: %d messages outside [%d, %d]", ids, got, BestCase(n), WorstCase(n))
			}
		})
	}
}

// rotationOf reports whether ids, read round the ring from its minimum, go
// up by one (step +1) or, from its maximum, go down by one (step -1).
func rotationOf(ids []int, step int) bool {
	n := len(ids)
	start := slices.Index(ids, slices.Min(ids))
	if step < 0 {
		start = slices.Index(ids, slices.Max(ids))
	}
	for k := 1; k < n; k++ {
		if ids[(start+k)%n]-ids[(start+k-1)%n] != step {
			return false
		}
	}
	return true
}

// Termination, uniqueness and agreement over random rings, initiator sets and delivery orders
// (messages may overtake each other). With every node starting the count is
// Messages whatever the order.
func TestRandomRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "n")
		ids := rapid.SliceOfNDistinct(rapid.IntRange(0, 3*n-1), n, n, rapid.ID).Draw(t, "ids")
		all := rapid.Bool().Draw(t, "all")
		starters := rapid.Permutation(ints(1, n)).Draw(t, "order")
		w := newNet(t, ids)
		w.Pick = func(k int) int { return rapid.IntRange(0, k-1).Draw(t, "pick") }
		for _, i := range starters {
			if all || i == 1 || rapid.IntRange(0, 2).Draw(t, "starts") == 0 {
				w.Start(i)
			}
		}
		w.Run()
		checkFinal(t, w, ids)
		if e, a := Messages(ids); w.Count[TypeElected] != a || (all && w.Count[TypeElection] != e) {
			t.Fatalf("ids %v all %v: %v, theory %d+%d", ids, all, w.Count, e, a)
		}
	})
}

// ints is lo..hi.
func ints(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// Decision (see the package doc): a lone initiator that is not the maximum still
// elects the maximum, because nodes join when they swallow a smaller id:
// ELECTION(1) 1->2, (2) 2->3, (3) 3->1->2->3.
func TestLoneInitiatorJoin(t *testing.T) {
	w := newNet(t, []int{1, 2, 3})
	w.Start(1)
	w.Run()
	checkFinal(t, w, []int{1, 2, 3})
	if w.Count[TypeElection] != 5 || w.Count[TypeElected] != 3 || w.Notes(2, NoteJoined) != 1 {
		t.Errorf("counts %v, notes at 2: %v", w.Count, w.Events[2])
	}
}

func TestValidation(t *testing.T) {
	for _, tt := range []struct {
		ids  []int
		want string
	}{{nil, "at least 1 node id"}, {[]int{4, 9, 4}, "nodes 1 and 3 both have id 4"}, {[]int{-3, 0}, ""}} {
		_, err := Factory(tt.ids)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Factory(%v) error %v, want %q", tt.ids, err, tt.want)
		}
	}
	f, _ := Factory([]int{1, 2})
	if _, err := f(0); err == nil || !strings.Contains(err.Error(), "outside 1..2") {
		t.Errorf("f(0): %v", err)
	}
}

// Step allocates nothing but the boxed message it sends.
func TestStepAllocs(t *testing.T) {
	nd, _ := New(Config{Index: 2, N: 3, ID: 5})
	var out node.Output
	in := node.Input{Kind: node.InMsg, From: 1, Msg: Election{ID: 9}}
	nd.Step(in, &out)
	if a := testing.AllocsPerRun(100, func() { out.Reset(); nd.Step(in, &out) }); a > 1 {
		t.Errorf("Step allocates %v times per forward, want at most 1", a)
	}
}
