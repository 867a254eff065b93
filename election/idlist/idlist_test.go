package idlist

import (
	"fmt"
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

// sizes adds up the ids carried by every message a run sends.
func sizes(w *electiontest.Net[*Node]) *int {
	total := new(int)
	w.OnStep = func(_ int, _ node.Input, out *node.Output) {
		for _, s := range out.Sends {
			*total += Size(s.Msg)
		}
	}
	return total
}

// checkDecisions checks that every initiator decides the smallest id
// (all agree); a process that never started decides nothing; all are done.
func checkDecisions(t electiontest.TB, w *electiontest.Net[*Node], ids []int, initiators []int) {
	t.Helper()
	for i := 1; i < len(w.Nodes); i++ {
		st := w.Nodes[i].Status()
		if started := slices.Contains(initiators, i); st.Decided != started || (started && st.Leader != slices.Min(ids)) || !w.Done[i] {
			t.Errorf("ids %v initiators %v: process %d is %+v, done %v", ids, initiators, i, st, w.Done[i])
		}
	}
}

// K initiators send exactly k*n messages carrying k*n(n+1)/2
// ids; n*n messages when all start.
func TestExactCounts(t *testing.T) {
	tests := []struct {
		ids            []int
		initiators     []int
		messages, carr int
	}{
		{[]int{42}, []int{1}, 1, 1},
		{[]int{5, 3, 7}, []int{1}, 3, 1 + 2 + 3},
		{[]int{5, 3, 7}, []int{1, 2, 3}, 9, 18},
		{[]int{4, 1, 3, 2}, []int{2}, 4, 10},
		{[]int{5, 3, 7, 1, 4}, []int{1, 3}, 10, 30},
		{[]int{5, 3, 7, 1, 4}, []int{1, 2, 3, 4, 5}, 25, 75},
	}
	for _, tt := range tests {
		w := newNet(t, tt.ids)
		carried := sizes(w)
		w.Start(tt.initiators...)
		w.Run()
		checkDecisions(t, w, tt.ids, tt.initiators)
		m, c := Messages(len(tt.ids), len(tt.initiators))
		if w.Count[TypeList] != tt.messages || *carried != tt.carr || m != tt.messages || c != tt.carr {
			t.Errorf("ids %v initiators %v: %d messages carrying %d ids (theory %d, %d), want %d, %d",
				tt.ids, tt.initiators, w.Count[TypeList], *carried, m, c, tt.messages, tt.carr)
		}
	}
}

// The chapter's "Anel 2" on the ring [5, 3, 7] started by process 1: [p : l]
// prepends p, and the list that comes back holds every id.
func TestListsGrow(t *testing.T) {
	w := newNet(t, []int{5, 3, 7})
	var got []string
	w.OnStep = func(i int, _ node.Input, out *node.Output) {
		for _, s := range out.Sends {
			got = append(got, fmt.Sprintf("%d->%d %v", i, s.To, s.Msg.(List).IDs))
		}
		for _, e := range out.Events {
			got = append(got, fmt.Sprintf("%d %v %d", i, e.Kind, e.Leader))
		}
	}
	w.Start(1)
	w.Run()
	want := "1->2 [5]; 2->3 [3 5]; 3->1 [7 3 5]; 1 leader 3"
	if s := strings.Join(got, "; "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// Over random rings, initiator sets and delivery orders: the
// counts are exact whatever the order, and all deciders agree on the minimum.
func TestRandomRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 10).Draw(t, "n")
		ids := rapid.SliceOfNDistinct(rapid.IntRange(0, 4*n-1), n, n, rapid.ID).Draw(t, "ids")
		initiators := rapid.SliceOfNDistinct(rapid.IntRange(1, n), 1, n, rapid.ID).Draw(t, "initiators")
		w := newNet(t, ids)
		w.Pick = func(k int) int { return rapid.IntRange(0, k-1).Draw(t, "pick") }
		carried := sizes(w)
		w.Start(initiators...)
		w.Run()
		checkDecisions(t, w, ids, initiators)
		if m, c := Messages(n, len(initiators)); w.Count[TypeList] != m || *carried != c {
			t.Fatalf("%d messages, %d ids; want %d, %d", w.Count[TypeList], *carried, m, c)
		}
	})
}

// The list sent is a new slice: the received one is never modified or shared.
func TestListNotShared(t *testing.T) {
	nd, _ := New(Config{Index: 1, N: 3, ID: 9})
	in := []int{4, 2}
	var out node.Output
	nd.Step(node.Input{Kind: node.InMsg, Msg: List{IDs: in}}, &out)
	sent := out.Sends[0].Msg.(List).IDs
	sent[1] = 0
	if !slices.Equal(in, []int{4, 2}) || Size(out.Sends[0].Msg) != 3 {
		t.Errorf("received list now %v; sent %v", in, sent)
	}
}

func TestValidation(t *testing.T) {
	for _, tt := range []struct {
		ids  []int
		want string
	}{{nil, "at least 1 process id"}, {[]int{4, 9, 4}, "processes 1 and 3 both have id 4"}, {[]int{-3, 0}, ""}} {
		_, err := Factory(tt.ids)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("Factory(%v) error %v, want %q", tt.ids, err, tt.want)
		}
	}
	f, _ := Factory([]int{1, 2})
	if _, err := f(3); err == nil || !strings.Contains(err.Error(), "outside 1..2") {
		t.Errorf("f(3): %v", err)
	}
}
