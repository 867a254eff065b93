package anonymous

import (
	"fmt"
	"strings"
	"testing"

	"ringlab/election/internal/electiontest"
	"ringlab/engine/node"
)

func newNet(t *testing.T, n int) *electiontest.Net[*Node] {
	f, err := Factory(n)
	return electiontest.Build[*Node](t, f, err, n)
}

// transcript renders a run as the chapter's tables read: state changes, sends
// (->) and receipts (<-), one line each, in order.
func transcript(w *electiontest.Net[*Node]) *strings.Builder {
	var b strings.Builder
	w.OnStep = func(i int, in node.Input, out *node.Output) {
		if in.Kind == node.InMsg {
			fmt.Fprintf(&b, "%d <- %s\n", i, in.Msg.Type())
		}
		for _, e := range out.Events {
			if e.Kind == node.EvState {
				fmt.Fprintf(&b, "%d C = %s\n", i, e.State)
			}
		}
		for _, s := range out.Sends {
			fmt.Fprintf(&b, "%d -> %s\n", i, s.Msg.Type())
		}
	}
	return &b
}

// The chapter's "Anel 1", the two tables with two processes: one candidate is
// elected; two simultaneous candidates are both Installed.
func TestChapterTables(t *testing.T) {
	tests := []struct {
		name       string
		candidates []int
		want       string
	}{
		{"one candidate", []int{1}, `1 C = Candidate
1 -> VoteForMe
2 <- VoteForMe
2 -> VoteForMe
1 <- VoteForMe
1 C = Elected
1 -> WeHaveALeader
2 <- WeHaveALeader
2 -> WeHaveALeader
1 <- WeHaveALeader
1 C = Installed
`},
		{"both candidates at once", []int{1, 2}, `1 C = Candidate
1 -> VoteForMe
2 C = Candidate
2 -> VoteForMe
2 <- VoteForMe
2 C = Elected
2 -> WeHaveALeader
1 <- VoteForMe
1 C = Elected
1 -> WeHaveALeader
1 <- WeHaveALeader
1 C = Installed
2 <- WeHaveALeader
2 C = Installed
`},
	}
	for _, tt := range tests {
		w := newNet(t, 2)
		b := transcript(w)
		w.Start(tt.candidates...)
		w.Run()
		if b.String() != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, b, tt.want)
		}
	}
}

// With one candidate exactly one process is Installed; with k
// simultaneous candidates all k are — distinct leaders by the observer's
// labels, the uniqueness violation. Always n VoteForMe and n WeHaveALeader.
func TestCandidates(t *testing.T) {
	tests := []struct {
		n          int
		candidates []int
	}{
		{1, []int{1}},
		{2, []int{1}},
		{2, []int{2}},
		{2, []int{1, 2}},
		{5, []int{3}},
		{6, []int{2, 5}},
		{5, []int{1, 2, 3, 4, 5}},
		{7, []int{7, 1, 4}},
	}
	for _, tt := range tests {
		w := newNet(t, tt.n)
		w.Start(tt.candidates...)
		w.Run()
		votes, leaders := Messages(tt.n)
		if w.Count[TypeVoteForMe] != votes || w.Count[TypeWeHaveALeader] != leaders {
			t.Errorf("n=%d candidates %v: %v, want %d+%d", tt.n, tt.candidates, w.Count, votes, leaders)
		}
		isCandidate := map[int]bool{}
		for _, c := range tt.candidates {
			isCandidate[c] = true
		}
		for i := 1; i <= tt.n; i++ {
			want := StateFollower
			if isCandidate[i] {
				want = StateInstalled
			}
			if got := w.Nodes[i].State(); got != want || !w.Done[i] {
				t.Errorf("n=%d candidates %v: process %d is %v (done %v), want %v", tt.n, tt.candidates, i, got, w.Done[i], want)
			}
			if leaders := leaderEvents(w.Events[i]); (want == StateInstalled) != (len(leaders) == 1 && leaders[0] == i) {
				t.Errorf("process %d: leader events %v", i, leaders)
			}
		}
	}
}

func leaderEvents(evs []node.Event) []int {
	var ids []int
	for _, e := range evs {
		if e.Kind == node.EvLeader {
			ids = append(ids, e.Leader)
		}
	}
	return ids
}

// Cases the chapter leaves undefined are ignored with a note: a vote reaching
// an Elected process, an announcement reaching a Candidate.
func TestUndefinedCases(t *testing.T) {
	nd, _ := New(Config{Index: 1, N: 2})
	var out node.Output
	nd.Step(node.Input{Kind: node.InMsg, Msg: WeHaveALeader{}}, &out) // Follower: forwards
	nd.Step(node.Input{Kind: node.InCmd, Cmd: node.CmdStart}, &out)
	nd.Step(node.Input{Kind: node.InMsg, Msg: WeHaveALeader{}}, &out) // Candidate: undefined
	nd.Step(node.Input{Kind: node.InMsg, Msg: VoteForMe{}}, &out)     // -> Elected
	nd.Step(node.Input{Kind: node.InMsg, Msg: VoteForMe{}}, &out)     // Elected: undefined
	var notes []string
	for _, e := range out.Events {
		if e.Kind == node.EvNote {
			notes = append(notes, e.Note)
		}
	}
	if len(notes) != 2 || notes[0] != NoteLeaderIgnored || notes[1] != NoteVoteIgnored || nd.State() != StateElected {
		t.Errorf("notes %q, state %v", notes, nd.State())
	}
}

func TestValidation(t *testing.T) {
	if _, err := Factory(0); err == nil || !strings.Contains(err.Error(), "at least 1 process") {
		t.Errorf("Factory(0): %v", err)
	}
	f, _ := Factory(3)
	if _, err := f(4); err == nil || !strings.Contains(err.Error(), "outside 1..3") {
		t.Errorf("f(4): %v", err)
	}
}
