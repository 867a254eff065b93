package maekawa

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/node"
	"ringlab/mutex/internal/mutextest"
)

func TestConfigValidation(t *testing.T) {
	mutextest.CheckConfigs(t, Factory, []mutextest.ConfigCase[Config]{
		{Name: "one node", Cfg: Config{N: 1}, Want: ""},
		{Name: "ids", Cfg: Config{N: 2, Ids: []int{9, 0}}, Want: ""},
		{Name: "no nodes", Cfg: Config{N: 0}, Want: "number of nodes must be 1..1024"},
		{Name: "ids count", Cfg: Config{N: 3, Ids: []int{1}}, Want: "1 ids given for 3 nodes"},
		{Name: "duplicate id", Cfg: Config{N: 2, Ids: []int{4, 4}}, Want: "id 4 appears twice: ids must be distinct"},
	})
	if _, err := New(Config{N: 2, Index: 3}); err == nil || !strings.Contains(err.Error(), "1..2") {
		t.Fatalf("New with index 3 of 2: %v", err)
	}
}

// TestQuorums: row and column of the grid (quorum.go); every two quorums
// intersect for N = 1..50, perfect squares or not.
func TestQuorums(t *testing.T) {
	for _, tt := range []struct {
		n, i int
		want []int
	}{
		{1, 1, []int{1}},
		{2, 2, []int{1, 2}},
		{5, 3, []int{1, 2, 3}},       // [1 2 3; 4 5 _]: column 3 has one row
		{5, 5, []int{2, 4, 5}},       //
		{9, 5, []int{2, 4, 5, 6, 8}}, // [1 2 3; 4 5 6; 7 8 9]
		{10, 10, []int{2, 6, 9, 10}}, // [1 2 3 4; 5 6 7 8; 9 10 _ _]: k = 4
		{3, 4, nil},
	} {
		if got := Quorum(tt.n, tt.i); !slices.Equal(got, tt.want) {
			t.Errorf("Quorum(%d, %d) = %v, want %v", tt.n, tt.i, got, tt.want)
		}
	}
	for n := 1; n <= 50; n++ {
		largest := 0
		for a := 1; a <= n; a++ {
			qa := Quorum(n, a)
			largest = max(largest, len(qa))
			if !slices.Contains(qa, a) {
				t.Fatalf("n=%d: node %d is not in its own quorum %v", n, a, qa)
			}
			for b := a + 1; b <= n; b++ {
				if !slices.ContainsFunc(Quorum(n, b), func(x int) bool { return slices.Contains(qa, x) }) {
					t.Fatalf("n=%d: quorums of %d %v and %d %v do not intersect", n, a, qa, b, Quorum(n, b))
				}
			}
		}
		if QuorumSize(n) != largest {
			t.Fatalf("QuorumSize(%d) = %d, largest quorum has %d", n, QuorumSize(n), largest)
		}
	}
	for n, want := range map[int][2]int{1: {0, 0}, 4: {6, 10}, 9: {12, 20}, 16: {18, 30}, 10: {15, 25}} {
		if lo, hi := MessagesPerEntry(n); lo != want[0] || hi != want[1] {
			t.Errorf("MessagesPerEntry(%d) = %d, %d; want %v", n, lo, hi, want)
		}
	}
}

// TestUncontended: one node at a time costs exactly 3(K-1) messages, K its
// quorum's size — REQUEST, LOCKED, RELEASE to each other member.
func TestUncontended(t *testing.T) {
	for n := 1; n <= 20; n++ {
		h := newHarness(t, Config{N: n})
		for i := 1; i <= n; i++ {
			before := h.Total()
			h.Cmd(i, node.CmdRequest)
			h.Drain()
			h.Cmd(i, node.CmdRelease)
			h.Drain()
			k := len(Quorum(n, i))
			if got := h.Total() - before; got != 3*(k-1) || len(h.Entries) != i {
				t.Fatalf("n=%d node %d: %d messages, %d entries; want 3(K-1) = %d", n, i, got, len(h.Entries), 3*(k-1))
			}
		}
		if h.Counts["FAILED"]+h.Counts["INQUIRE"]+h.Counts["RELINQUISH"] != 0 {
			t.Fatalf("n=%d: %v without contention", n, h.Counts)
		}
	}
}

// TestDeadlockAvoided: four nodes, quorums {1,2,3} {1,2,4} {1,3,4} {2,3,4}.
// Node 4 (1, 4) holds N2's lock and N1 (1, 1) holds N3's: each waits for the
// other's arbiter — Maekawa's deadlock without the extra messages. N2 sees the
// higher (1, 1) and INQUIREs node 4; N3 answers node 4 FAILED; node 4, having
// failed, RELINQUISHes N2, which locks for node 1. Node 1 enters, then node 4.
func TestDeadlockAvoided(t *testing.T) {
	h := newHarness(t, Config{N: 4})
	h.Cmd(4, node.CmdRequest) // locks its own arbiter at once
	h.Deliver(t, 4, 2, "")
	h.Cmd(1, node.CmdRequest)
	h.Deliver(t, 1, 3, "")
	h.Deliver(t, 1, 2, "") // N2 locked for (1,4): INQUIRE
	h.Deliver(t, 4, 3, "") // N3 locked for (1,1): FAILED
	h.Deliver(t, 2, 4, "") // LOCKED
	h.Deliver(t, 2, 4, "") // INQUIRE: kept, no FAILED yet
	if st := h.Nodes[4].Status(); st.Locks != 2 || st.Failed {
		t.Fatalf("node 4 %+v: want 2 locks, not failed, the INQUIRE kept", st)
	}
	h.Deliver(t, 3, 4, "") // FAILED: RELINQUISH to N2
	h.Deliver(t, 3, 1, "")
	h.Deliver(t, 4, 2, "") // N2 locks for (1,1)
	h.Deliver(t, 2, 1, "")
	h.Cmd(1, node.CmdRelease)
	h.Drain()
	h.Cmd(4, node.CmdRelease)
	h.Drain()
	want := []string{
		"N4 -> N2 REQUEST", "N4 -> N3 REQUEST", "N2 -> N4 LOCKED",
		"N1 -> N2 REQUEST", "N1 -> N3 REQUEST", "N3 -> N1 LOCKED", "N2 -> N4 INQUIRE", "N3 -> N4 FAILED",
		"N4 -> N2 RELINQUISH", "N2 -> N1 LOCKED", "N1 enter", "N1 exit", "N1 -> N2 RELEASE", "N1 -> N3 RELEASE",
		"N2 -> N4 LOCKED", "N3 -> N4 LOCKED", "N4 enter", "N4 exit", "N4 -> N2 RELEASE", "N4 -> N3 RELEASE",
	}
	if !slices.Equal(h.Log, want) {
		t.Fatalf("transcript\n got %q\nwant %q", h.Log, want)
	}
	if h.Overlap || h.Total() != 16 || h.Counts["LOCKED"] != 5 {
		t.Fatalf("overlap %v, counts %v: want 16 messages = 4(K-1) per entry, 5 LOCKED", h.Overlap, h.Counts)
	}
}

// TestRandomSchedules sweeps random per-link FIFO schedules with up to every
// node requesting at once: mutual exclusion, no deadlock, every request
// granted, and on average at most 5(K-1) messages per entry, K the largest
// quorum (MessagesPerEntry).
func TestRandomSchedules(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 30
	}
	kinds := map[string]int{}
	worst := 0.0
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		n := 1 + rng.IntN(25)
		cfg := Config{N: n, Ids: rng.Perm(3 * n)[:n]}
		h := newHarness(t, cfg)
		quota, burst := 1+rng.IntN(3), rng.IntN(n+1)
		if !runRandom(h, rng, quota, burst) {
			t.Fatalf("seed %d %+v: deadlock", seed, cfg)
		}
		if h.Overlap {
			t.Fatalf("seed %d %+v: two nodes in the CS at once", seed, cfg)
		}
		if len(h.Entries) != n*quota {
			t.Fatalf("seed %d %+v: %d entries, want %d", seed, cfg, len(h.Entries), n*quota)
		}
		_, hi := MessagesPerEntry(n)
		if per := float64(h.Total()) / float64(len(h.Entries)); per > float64(hi) {
			t.Fatalf("seed %d %+v: %.1f messages per entry, want at most 5(K-1) = %d (%v)", seed, cfg, per, hi, h.Counts)
		} else if n > 1 {
			worst = max(worst, per/float64(hi)*5)
		}
		for k, c := range h.Counts {
			kinds[k] += c
		}
	}
	for _, k := range []string{"FAILED", "INQUIRE", "RELINQUISH"} {
		if kinds[k] == 0 {
			t.Fatalf("no %s in %d schedules: the sweep does not exercise contention (%v)", k, seeds, kinds)
		}
	}
	t.Logf("messages %v; worst run: %.2f(K-1) per entry", kinds, worst)
}

// Forget keeps its node.Forgetter contract: a message's clock the receiver
// will only max with a clock at least as large, and the request named by
// a LOCKED, FAILED or INQUIRE its receiver is no longer waiting with, are
// forgotten, and delivering what is left changes nothing, over random FIFO
// schedules of two to five nodes (the check must bite).
func TestForget(t *testing.T) {
	for n := 2; n <= 5; n++ {
		f, err := Factory(Config{N: n})
		if err != nil {
			t.Fatal(err)
		}
		if got := mutextest.CheckForget(t, f, n, 3, 60); got == 0 {
			t.Errorf("N = %d: no delivery had anything forgotten", n)
		}
	}
}

// TestClimbBound: the node.Climber contract (mutextest.CheckClimb) over
// random schedules for N = 2..7, many requests a node; the largest rises
// seen are the hand counts of climb.go: 4 on a command (a release with a
// remembered request), at most 4 on a message. A quorum of one has no
// bound.
func TestClimbBound(t *testing.T) {
	for n := 2; n <= 7; n++ {
		f, err := Factory(Config{N: n})
		if err != nil {
			t.Fatal(err)
		}
		r := mutextest.CheckClimb(t, f, n, 6, 300)
		if r.Cmd != 4 || r.Msg > 4 || r.Msg < 2 {
			t.Errorf("N = %d: largest rise %d on a command, %d on a message; want 4 and 2..4", n, r.Cmd, r.Msg)
		}
		t.Logf("N = %d: %d steps, largest rise %d on a command, %d on a message", n, r.Steps, r.Cmd, r.Msg)
	}
	one, _ := New(Config{N: 1, Index: 1})
	if _, ok := one.Climb(0); ok {
		t.Error("a quorum of one has a bound")
	}
}
