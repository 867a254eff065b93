package smallestid

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/election/internal/electiontest"
	"ringlab/engine/node"
)

func newNet(t electiontest.TB, ids []int, extinction bool) *electiontest.Net[*Node] {
	f, err := Factory(Ring{IDs: ids, Extinction: extinction})
	return electiontest.Build[*Node](t, f, err, len(ids))
}

// checkFinal checks the specification's validation: termination (every node done), uniqueness
// (exactly one LEADER, all others FOLLOWER) and correctness (the minimum id).
func checkFinal(t electiontest.TB, w *electiontest.Net[*Node], ids []int) {
	t.Helper()
	minID, leaders := slices.Min(ids), 0
	for i := 1; i < len(w.Nodes); i++ {
		st := w.Nodes[i].Status()
		switch {
		case st.State == StateLeader && st.ID == minID && st.Complete:
			leaders++
		case st.State == StateFollower:
		default:
			t.Errorf("ids %v: node %d ended %+v", ids, i, st)
		}
		if !st.HasLeader || st.Leader != minID || !w.Done[i] {
			t.Errorf("ids %v: node %d knows leader %d (%v), done %v; want %d", ids, i, st.Leader, st.HasLeader, w.Done[i], minID)
		}
	}
	if leaders != 1 {
		t.Errorf("ids %v: %d leaders, want 1", ids, leaders)
	}
}

// The four required test cases of the specification, one initiator each, with the
// exact counts d + n ELECTION and n ELECTED. The fix changes nothing here.
func TestRequiredCases(t *testing.T) {
	tests := []struct {
		name                  string
		ids                   []int
		initiator             int // index
		wantLeader            int // index
		wantElection, elected int
	}{
		{"three nodes", []int{5, 3, 7}, 1, 2, 1 + 3, 3},
		{"five nodes", []int{5, 3, 7, 1, 4}, 1, 4, 3 + 5, 5},
		{"worst case, initiator id 5", []int{5, 4, 3, 2, 1}, 1, 5, 4 + 5, 5},
		{"non-sequential ids", []int{100, 42, 7, 999, 13}, 1, 3, 2 + 5, 5},
	}
	for _, tt := range tests {
		for _, fix := range []bool{false, true} {
			w := newNet(t, tt.ids, fix)
			w.Start(tt.initiator)
			w.Run()
			checkFinal(t, w, tt.ids)
			if st := w.Nodes[tt.wantLeader].Status(); st.State != StateLeader || st.Rule4 != 1 {
				t.Errorf("%s: node %d is %+v, want LEADER with rule 4 fired once", tt.name, tt.wantLeader, st)
			}
			if w.Count[TypeElection] != tt.wantElection || w.Count[TypeElected] != tt.elected {
				t.Errorf("%s (fix %v): %v, want %d ELECTION and %d ELECTED", tt.name, fix, w.Count, tt.wantElection, tt.elected)
			}
		}
	}
}

// The specification's expected output of the default configuration, rendered
// from the nodes' inputs, sends, states, leader events and notes.
func TestExpectedOutput(t *testing.T) {
	const want = `[Node 1] ID=5 iniciando eleição
[Node 1] Enviou ELECTION(5) para Node 2
[Node 2] ID=3 recebeu ELECTION(5)
[Node 2] Enviou ELECTION(3) para Node 3
[Node 3] ID=7 recebeu ELECTION(3)
[Node 3] Enviou ELECTION(3) para Node 4
[Node 4] ID=1 recebeu ELECTION(3)
[Node 4] Enviou ELECTION(1) para Node 5
[Node 5] ID=4 recebeu ELECTION(1)
[Node 5] Enviou ELECTION(1) para Node 1
[Node 1] ID=5 recebeu ELECTION(1)
[Node 1] Enviou ELECTION(1) para Node 2
[Node 2] ID=3 recebeu ELECTION(1)
[Node 2] Enviou ELECTION(1) para Node 3
[Node 3] ID=7 recebeu ELECTION(1)
[Node 3] Enviou ELECTION(1) para Node 4
[Node 4] ID=1 recebeu ELECTION(1) - próprio ID!
[Node 4] SOU O LÍDER! Enviando ELECTED(1)
[Node 5] Reconheço líder ID=1
[Node 1] Reconheço líder ID=1
[Node 2] Reconheço líder ID=1
[Node 3] Reconheço líder ID=1
[Node 4] Eleição completa!
`
	ids := []int{5, 3, 7, 1, 4}
	w := newNet(t, ids, false)
	var b strings.Builder
	w.OnStep = func(i int, in node.Input, out *node.Output) {
		p := func(format string, args ...any) {
			fmt.Fprintf(&b, "[Node %d] "+format+"\n", append([]any{i}, args...)...)
		}
		own := slices.ContainsFunc(out.Events, func(e node.Event) bool { return e.Note == NoteOwnID })
		if m, ok := in.Msg.(Election); ok {
			if own {
				p("ID=%d recebeu ELECTION(%d) - próprio ID!", ids[i-1], m.CandidateID)
			} else {
				p("ID=%d recebeu ELECTION(%d)", ids[i-1], m.CandidateID)
			}
		}
		for _, e := range out.Events {
			switch {
			case e.Note == NoteStarted:
				p("ID=%d iniciando eleição", ids[i-1])
			case e.Kind == node.EvLeader && e.Leader == ids[i-1]:
				p("SOU O LÍDER! Enviando ELECTED(%d)", e.Leader)
			case e.Kind == node.EvLeader:
				p("Reconheço líder ID=%d", e.Leader)
			case e.Note == NoteComplete:
				p("Eleição completa!")
			}
		}
		for _, s := range out.Sends {
			if m, ok := s.Msg.(Election); ok {
				p("Enviou ELECTION(%d) para Node %d", m.CandidateID, s.To)
			}
		}
	}
	w.Start(1)
	w.Run()
	if got := b.String(); got != want {
		t.Errorf("transcript:\n%s\nwant:\n%s", got, want)
	}
}

// With one initiator, d + n ELECTION and n ELECTED messages, for
// every initiator position over every permutation of rings of 1 to 6 nodes.
func TestSingleInitiatorCount(t *testing.T) {
	for n := 1; n <= 6; n++ {
		electiontest.ForEachPermutation(n, func(ids []int) {
			leader := slices.Index(ids, 1) + 1
			for j := 1; j <= n; j++ {
				d := (leader - j + n) % n
				for _, fix := range []bool{false, true} {
					w := newNet(t, ids, fix)
					w.Start(j)
					w.Run()
					checkFinal(t, w, ids)
					e, l := Messages(ids, []int{j})
					if e != d+n || l != n || w.Count[TypeElection] != e || w.Count[TypeElected] != l {
						t.Fatalf("ids %v initiator %d fix %v: %v, theory %d+%d, want %d+%d", ids, j, fix, w.Count, e, l, d+n, n)
					}
				}
			}
		})
	}
}

// Rule 1: the spontaneous start applies only when ASLEEP.
func TestStartOnlyWhenAsleep(t *testing.T) {
	w := newNet(t, []int{5, 3, 7}, false)
	w.Start(1, 1)
	w.Run()
	if w.Notes(1, NoteNotAsleep) != 1 || w.Count[TypeElection] != 4 {
		t.Errorf("second start: notes %v, counts %v; want one ignored start and 4 ELECTION", w.Events[1], w.Count)
	}
}

// Step allocates nothing but the boxed message it sends.
func TestStepAllocs(t *testing.T) {
	nd, _ := New(Config{Index: 2, N: 3, ID: 5})
	var out node.Output
	in := node.Input{Kind: node.InMsg, From: 1, Msg: Election{CandidateID: 3}}
	nd.Step(in, &out)
	if a := testing.AllocsPerRun(100, func() { out.Reset(); nd.Step(in, &out) }); a > 1 {
		t.Errorf("Step allocates %v times per forward, want at most 1", a)
	}
}
