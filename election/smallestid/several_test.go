package smallestid

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"ringlab/election/internal/electiontest"
	"ringlab/engine/node"
)

// Several initiators, every node starting before any delivery,
// FIFO delivery. As written, each initiator's message reaches the minimum
// and comes back as ELECTION(min): rule 4 fires k times and k ELECTED rounds
// go out (12 = (1+3)+(0+3)+(2+3) ELECTION and 3*3 ELECTED for [5,3,7]). With
// Extinction the nodes drop what they already beat: rule 4 fires once.
func TestSeveralInitiatorsExact(t *testing.T) {
	tests := []struct {
		ids                      []int
		fix                      bool
		election, elected, rule4 int
	}{
		{[]int{5, 3, 7}, false, 12, 9, 3},
		{[]int{5, 3, 7}, true, 5, 3, 1},
		{[]int{5, 3, 7, 1, 4}, false, 35, 25, 5},
		{[]int{5, 3, 7, 1, 4}, true, 11, 5, 1},
	}
	for _, tt := range tests {
		w := newNet(t, tt.ids, tt.fix)
		all := make([]int, len(tt.ids))
		for i := range all {
			all[i] = i + 1
		}
		w.Start(all...)
		w.Run()
		checkFinal(t, w, tt.ids)
		leader := slices.Index(tt.ids, slices.Min(tt.ids)) + 1
		st := w.Nodes[leader].Status()
		if w.Count[TypeElection] != tt.election || w.Count[TypeElected] != tt.elected || st.Rule4 != tt.rule4 {
			t.Errorf("ids %v fix %v: %v, rule 4 fired %d times; want %d ELECTION, %d ELECTED, rule 4 %d times",
				tt.ids, tt.fix, w.Count, st.Rule4, tt.election, tt.elected, tt.rule4)
		}
		if got := w.Notes(leader, NoteRule4); got != tt.rule4-1 {
			t.Errorf("ids %v fix %v: %d %q notes, want %d", tt.ids, tt.fix, got, NoteRule4, tt.rule4-1)
		}
		if e, l := Messages(tt.ids, all); !tt.fix && (e != tt.election || l != tt.elected) {
			t.Errorf("ids %v: Messages = %d, %d; want %d, %d", tt.ids, e, l, tt.election, tt.elected)
		}
	}
}

// The specification's validation under several initiators and random delivery orders (messages
// may overtake each other): the run terminates with one LEADER holding the
// minimum and every other node FOLLOWER. As written, the counts are exactly
// Messages and rule 4 fires once per initiator; with Extinction rule 4 fires
// exactly once, there are exactly n ELECTED, at most Messages ELECTION, and
// no node's state ever moves backwards.
func TestSeveralInitiatorsRandomOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 9).Draw(t, "n")
		ids := rapid.SliceOfNDistinct(rapid.IntRange(-20, 7*n), n, n, rapid.ID).Draw(t, "ids") // some negative
		starters := rapid.SliceOfNDistinct(rapid.IntRange(1, n), 1, n, rapid.ID).Draw(t, "starters")
		fix := rapid.Bool().Draw(t, "extinction")
		wantE, wantL := Messages(ids, starters)
		leader := slices.Index(ids, slices.Min(ids)) + 1
		w := newNet(t, ids, fix)
		w.Pick = func(k int) int { return rapid.IntRange(0, k-1).Draw(t, "pick") }
		w.Start(starters...)
		w.Run()
		checkFinal(t, w, ids)
		gotE, gotL, rule4 := w.Count[TypeElection], w.Count[TypeElected], w.Nodes[leader].Status().Rule4
		if !fix && (gotE != wantE || gotL != wantL || rule4 != len(starters)) {
			t.Fatalf("ids %v starters %v: %v, rule 4 %d; want %d+%d, rule 4 %d", ids, starters, w.Count, rule4, wantE, wantL, len(starters))
		}
		if fix && (gotE > wantE || gotL != n || rule4 != 1 || backwards(w)) {
			t.Fatalf("ids %v starters %v with fix: %v, rule 4 %d, backwards %v", ids, starters, w.Count, rule4, backwards(w))
		}
	})
}

// backwards reports whether some node's state went back to CANDIDATE after
// LEADER or FOLLOWER (the rules as written allow it; Extinction must not).
func backwards(w *electiontest.Net[*Node]) bool {
	for _, evs := range w.Events {
		settled := false
		for _, e := range evs {
			if e.Kind != node.EvState {
				continue
			}
			if e.State == StateCandidate.String() && settled {
				return true
			}
			settled = e.State == StateLeader.String() || e.State == StateFollower.String()
		}
	}
	return false
}

// Ring validation: errors a CLI user can act on.
func TestValidation(t *testing.T) {
	tests := []struct {
		ids  []int
		want string // substring of the error; "" for none
	}{
		{nil, "at least 1 node id"},
		{[]int{5, 3, 5}, "nodes 1 and 3 both have id 5"},
		{[]int{-1, 0, 1}, ""},
		{[]int{42}, ""},
	}
	for _, tt := range tests {
		_, err := Factory(Ring{IDs: tt.ids})
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Factory(%v) error %v, want %q", tt.ids, err, tt.want)
		}
	}
	f, _ := Factory(Ring{IDs: []int{1, 2}})
	if _, err := f(3); err == nil || !strings.Contains(err.Error(), "outside 1..2") {
		t.Errorf("f(3): %v", err)
	}
	if _, err := New(Config{Index: 0, N: 2}); err == nil {
		t.Error("New with index 0: no error")
	}
}
