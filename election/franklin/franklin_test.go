package franklin

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"ringlab/election/internal/electiontest"
	"ringlab/engine/node"
)

// newNet is the area's test net over a Franklin ring of ids, every link
// FIFO.
func newNet(t electiontest.TB, ids []int) *electiontest.Net[*Node] {
	t.Helper()
	f, err := Factory(Config{Ids: ids})
	w := electiontest.Build[*Node](t, f, err, len(ids))
	w.FIFOLinks = true
	return w
}

// check asserts termination, uniqueness and agreement with the
// largest id, and the exact count 2nR + n; it returns R.
func check(w *electiontest.Net[*Node], ids []int) (leaderIndex, rounds int) {
	w.T.Helper()
	n, top := len(ids), slices.Max(ids)
	for i := 1; i <= n; i++ {
		st := w.Nodes[i].Status()
		if st.State == StateLeader {
			if leaderIndex != 0 {
				w.T.Fatalf("ids %v: nodes %d and %d are both LEADER", ids, leaderIndex, i)
			}
			leaderIndex, rounds = i, st.Round
		}
		if !slices.Equal(w.Leaders(i), []int{top}) || st.Leader != top || !w.Done[i] {
			w.T.Fatalf("ids %v: node %d leader events %v, status %+v; want exactly [%d] and done", ids, i, w.Leaders(i), st, top)
		}
	}
	if leaderIndex == 0 || ids[leaderIndex-1] != top {
		w.T.Fatalf("ids %v: leader node %d, want the node with id %d", ids, leaderIndex, top)
	}
	if rounds > MaxRounds(n) {
		w.T.Fatalf("ids %v: %d rounds, theory allows %d", ids, rounds, MaxRounds(n))
	}
	if got, want := w.Count["ELECTION"], 2*n*rounds; got != want {
		w.T.Fatalf("ids %v: %d ELECTION messages, want 2nR = %d", ids, got, want)
	}
	if got := w.Count["ELECTED"]; got != n {
		w.T.Fatalf("ids %v: %d ELECTED messages, want n = %d", ids, got, n)
	}
	return leaderIndex, rounds
}

func TestSmallRings(t *testing.T) {
	tests := []struct {
		name     string
		ids      []int
		starters []int
		leader   int // node index
		rounds   int
	}{
		{"one node hears itself both ways", []int{7}, []int{1}, 1, 1},
		{"two nodes: the smaller turns passive", []int{1, 2}, []int{1}, 2, 2},
		{"ascending: only the top survives round 1", []int{1, 2, 3}, []int{1, 2, 3}, 3, 2},
		{"rotated", []int{3, 1, 2}, []int{2}, 1, 2},
		{"two survivors of round 1", []int{1, 3, 2, 4}, []int{1, 2, 3, 4}, 4, 3},
		{"the specification's default ring", []int{5, 3, 7, 1, 4}, []int{1}, 3, 3},
		{"the specification's ring of large ids", []int{100, 42, 7, 999, 13}, []int{1, 4}, 4, 3},
		{"ascending 8", []int{1, 2, 3, 4, 5, 6, 7, 8}, []int{1}, 8, 2},
		{"8 with rounds at the bound", []int{1, 5, 2, 7, 3, 6, 4, 8}, []int{1, 2, 3, 4, 5, 6, 7, 8}, 8, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newNet(t, tt.ids)
			w.Start(tt.starters...)
			w.Run()
			leader, rounds := check(w, tt.ids)
			if leader != tt.leader || rounds != tt.rounds {
				t.Fatalf("leader node %d after %d rounds, want node %d after %d", leader, rounds, tt.leader, tt.rounds)
			}
			if want := Messages(len(tt.ids), tt.rounds); w.Count["ELECTION"]+w.Count["ELECTED"] != want {
				t.Fatalf("messages %v, want %d in all", w.Count, want)
			}
		})
	}
}

// Ids are buffered by side and round; what arrived early for a
// later round is relayed, in round order, when the process turns passive.
func TestBufferByRound(t *testing.T) {
	ids := []int{5, 1, 1000, 1001, 1002} // node 1 has id 5; the rest only fill the ring
	cw := func(id, r int) node.Input {
		return node.Input{Kind: node.InMsg, From: 5, Msg: Msg{Kind: MsgElection, Id: id, Round: r, Dir: Clockwise}}
	}
	ccw := func(id, r int) node.Input {
		return node.Input{Kind: node.InMsg, From: 2, Msg: Msg{Kind: MsgElection, Id: id, Round: r, Dir: Counterclockwise}}
	}
	tests := []struct {
		name      string
		inputs    []node.Input
		wantState State
		wantRound int
		wantLast  []node.Send // what the last input produced
	}{
		{"round 2 from the left waits for round 2 from the right",
			[]node.Input{cw(2, 1), cw(4, 2), ccw(3, 1)}, StateActive, 2,
			[]node.Send{{To: 2, Msg: Msg{MsgElection, 5, 2, Clockwise}}, {To: 5, Msg: Msg{MsgElection, 5, 2, Counterclockwise}}}},
		{"both round-2 ids smaller: round 3",
			[]node.Input{cw(2, 1), cw(4, 2), ccw(3, 1), ccw(1, 2)}, StateActive, 3,
			[]node.Send{{To: 2, Msg: Msg{MsgElection, 5, 3, Clockwise}}, {To: 5, Msg: Msg{MsgElection, 5, 3, Counterclockwise}}}},
		{"turning passive relays the early round-2 id onwards",
			[]node.Input{cw(2, 1), cw(8, 2), ccw(9, 1)}, StatePassive, 1,
			[]node.Send{{To: 2, Msg: Msg{MsgElection, 8, 2, Clockwise}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nd, err := New(Config{Ids: ids, Index: 1})
			if err != nil {
				t.Fatal(err)
			}
			var out node.Output
			nd.Step(node.Input{Kind: node.InCmd, Cmd: node.CmdStart}, &out)
			for _, in := range tt.inputs {
				out.Reset()
				nd.Step(in, &out)
			}
			st := nd.Status()
			if st.State != tt.wantState || st.Round != tt.wantRound || !slices.Equal(out.Sends, tt.wantLast) {
				t.Fatalf("status %+v, last sends %+v; want %s round %d sends %+v", st, out.Sends, tt.wantState, tt.wantRound, tt.wantLast)
			}
		})
	}
}

// Every arrangement of 1..n for n <= 6, every node starting, FIFO delivery;
// the worst arrangement reaches MaxRounds(n) exactly, so the bound is tight.
func TestAllPermutations(t *testing.T) {
	for n := 1; n <= 6; n++ {
		worst := 0
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i + 1
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i + 1
		}
		for perm := range permutations(ids) {
			w := newNet(t, perm)
			w.Start(all...)
			w.Run()
			_, r := check(w, perm)
			worst = max(worst, r)
		}
		if worst != MaxRounds(n) {
			t.Errorf("n=%d: worst arrangement took %d rounds, theory's bound is %d", n, worst, MaxRounds(n))
		}
	}
}

// permutations yields every ordering of s (Heap's algorithm), each a fresh slice.
func permutations(s []int) func(yield func([]int) bool) {
	return func(yield func([]int) bool) {
		a := slices.Clone(s)
		c := make([]int, len(a))
		if !yield(slices.Clone(a)) {
			return
		}
		for i := 0; i < len(a); {
			if c[i] < i {
				if i%2 == 0 {
					a[0], a[i] = a[i], a[0]
				} else {
					a[c[i]], a[i] = a[i], a[c[i]]
				}
				if !yield(slices.Clone(a)) {
					return
				}
				c[i]++
				i = 0
			} else {
				c[i] = 0
				i++
			}
		}
	}
}

// Random ids, random starters and random delivery orders (per-link FIFO):
// one leader, the largest id, agreement, 2nR + n messages, R within the
// bound and within the brief's looser ceil(log2 n)+1.
func TestRandomSchedules(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 16).Draw(t, "n")
		ids := rapid.SliceOfNDistinct(rapid.IntRange(1, 1000), n, n, rapid.ID).Draw(t, "ids")
		starters := rapid.SliceOfNDistinct(rapid.IntRange(1, n), 1, n, rapid.ID).Draw(t, "starters")
		w := newNet(t, ids)
		w.Pick = func(k int) int { return rapid.IntRange(0, k-1).Draw(t, "pick") }
		w.Start(starters...)
		w.Run()
		_, r := check(w, ids)
		if ceil := ceilLog2(n) + 1; r > ceil {
			t.Fatalf("%d rounds > ceil(log2 %d)+1 = %d", r, n, ceil)
		}
	})
}

func ceilLog2(n int) int {
	c := 0
	for 1<<c < n {
		c++
	}
	return c
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no ids", Config{}},
		{"duplicate id", Config{Ids: []int{3, 1, 3}, Index: 1}},
		{"zero id", Config{Ids: []int{0, 1}, Index: 1}},
		{"index past the ring", Config{Ids: []int{1, 2}, Index: 3}},
		{"index zero", Config{Ids: []int{1, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cfg); err == nil {
				t.Fatalf("New(%+v) accepted it", tt.cfg)
			}
		})
	}
}

func TestTheory(t *testing.T) {
	for _, tt := range []struct{ n, rounds, msgs int }{{1, 1, 3}, {2, 2, 10}, {5, 3, 35}, {8, 4, 72}, {1000, 10, 21000}} {
		if MaxRounds(tt.n) != tt.rounds || MaxMessages(tt.n) != tt.msgs {
			t.Errorf("n=%d: MaxRounds %d MaxMessages %d, want %d %d", tt.n, MaxRounds(tt.n), MaxMessages(tt.n), tt.rounds, tt.msgs)
		}
	}
}
