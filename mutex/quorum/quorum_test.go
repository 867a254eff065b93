package quorum

import (
	"maps"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"ringlab/engine/node"
	"ringlab/mutex/internal/mutextest"
)

// Quorum m > n/2, at most n; at least one participant.
func TestConfigErrors(t *testing.T) {
	mutextest.CheckConfigs(t, Factory, []mutextest.ConfigCase[Config]{
		{Cfg: Config{Coordinators: 0, Participants: 1, M: 1}, Want: "at least 1 coordinator"},
		{Cfg: Config{Coordinators: 2, Participants: 1, M: 1}, Want: "quorum m=1: must be more than half of the 2 coordinators and at most all: 2..2"},
		{Cfg: Config{Coordinators: 3, Participants: 1, M: 4}, Want: "2..3"},
		{Cfg: Config{Coordinators: 3, Participants: 0, M: 2}, Want: "at least 1 participant"},
		{Cfg: Config{Coordinators: 3, Participants: 1, M: 2, RetryTimeout: -1}, Want: "retry timeout -1"},
	})
}

// n=3, m=2: coordinators 1..3, Part1 = node 4, Part2 = node 5; the tests
// release by hand.
func seedDriver(t *testing.T) *mutextest.Driver {
	d := mutextest.New(t, mutextest.Must(t, Factory, Config{Coordinators: 3, Participants: 2, M: 2}), 5)
	d.Hold = map[int]int64{4: -1, 5: -1}
	d.Cmd(4, node.CmdRequest)
	d.Cmd(5, node.CmdRequest)
	return d
}

// The chapter's successful run with n=3, m=2: Coord1 and Coord2 queue
// [Part1, Part2], Coord3 [Part2, Part1]; Part1 enters with OKs from Coord1 and
// Coord2; its RequestFree frees them (they grant Part2) and removes it from
// Coord3's queue; Part2 enters. 6 RequestAccess, 5 ResponseOK, 6 RequestFree.
func TestChapterSuccessfulRun(t *testing.T) {
	d := seedDriver(t)
	for _, p := range [][2]int{{4, 1}, {4, 2}, {5, 1}, {5, 2}, {5, 3}, {4, 3}, {1, 4}, {2, 4}, {3, 5}} {
		d.Deliver(p[0], p[1])
	}
	if !slices.Equal(d.Entries, []int{4}) {
		t.Fatalf("entries %v, want [4]", d.Entries)
	}
	d.Cmd(4, node.CmdRelease)
	d.Run(100)
	d.Cmd(5, node.CmdRelease)
	d.Run(100)
	want := map[string]int{"RequestAccess": 6, "ResponseOK": 5, "RequestFree": 6}
	if !slices.Equal(d.Entries, []int{4, 5}) || d.Overlaps != 0 || !maps.Equal(d.Counts, want) || !d.AllDone() {
		t.Errorf("entries %v, overlaps %d, counts %v (want %v), all done %v", d.Entries, d.Overlaps, d.Counts, want, d.AllDone())
	}
}

// The chapter's amnesia example: Part1 has OKs from Coord1
// and Coord2 and is in the CS; Coord2 crashes and recovers, forgetting its OK;
// Part2's request reaches it only now, so Part2 has OKs from Coord2 and Coord3
// and enters too: the violation. Releasing both then leaves everything free.
func TestAmnesia(t *testing.T) {
	d := seedDriver(t)
	for _, p := range [][2]int{{4, 1}, {4, 2}, {5, 1}, {5, 3}, {4, 3}, {1, 4}, {2, 4}, {3, 5}} {
		d.Deliver(p[0], p[1])
	}
	d.Crash(2)
	d.Restart(2)
	d.Deliver(5, 2)
	d.Deliver(2, 5)
	if d.Overlaps != 1 || !d.InCS[4] || !d.InCS[5] {
		t.Fatalf("want Part1 and Part2 both in the CS: overlaps %d, in CS %v\n%q", d.Overlaps, d.InCS, d.Trace)
	}
	d.Cmd(4, node.CmdRelease)
	d.Run(100)
	d.Cmd(5, node.CmdRelease)
	if !d.Run(100) || !d.AllDone() {
		t.Errorf("not all free after both released: %q", d.Trace)
	}
}

// Message complexity: with delay 1 on every link all coordinators
// see requests in the same order, so votes never split and every entry gets
// all n OKs: exactly n RequestAccess + n ResponseOK + n RequestFree.
func TestMessagesPerEntry(t *testing.T) {
	for _, tc := range []struct{ n, m, p, reqs int }{
		{1, 1, 1, 1}, {3, 2, 1, 1}, {5, 3, 1, 2}, {4, 4, 1, 1}, {3, 2, 3, 1}, {5, 4, 2, 3}, {7, 4, 4, 2},
	} {
		cfg := Config{Coordinators: tc.n, Participants: tc.p, M: tc.m}
		d := mutextest.New(t, mutextest.Must(t, Factory, cfg), cfg.Nodes())
		for j := 1; j <= tc.p; j++ {
			for range tc.reqs {
				d.At(0, tc.n+j, node.CmdRequest)
			}
		}
		if !d.Run(100000) || !d.AllDone() {
			t.Fatalf("%+v: did not end", tc)
		}
		e := tc.p * tc.reqs
		want := map[string]int{"RequestAccess": tc.n * e, "ResponseOK": tc.n * e, "RequestFree": tc.n * e}
		if len(d.Entries) != e || d.Overlaps != 0 || !maps.Equal(d.Counts, want) {
			t.Errorf("%+v: entries %d want %d, overlaps %d, counts %v want %v", tc, len(d.Entries), e, d.Overlaps, d.Counts, want)
		}
	}
}

// The chapter's split votes: three participants, n=3, m=2, and each coordinator
// hears a different participant first (delay 1 to "its" coordinator, 2 to the
// others): every participant holds one OK and nobody reaches m — deadlock.
// With RetryTimeout the participants give up, back off 1, 2, 3 timeouts and
// all get in, one at a time.
func TestSplitVotes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retry   int64
		entries int
	}{
		{"deadlock", 0, 0},
		{"resolved by retry", 10, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Coordinators: 3, Participants: 3, M: 2, RetryTimeout: tc.retry}
			d := mutextest.New(t, mutextest.Must(t, Factory, cfg), 6)
			d.Delay = func(from, to int, m node.Msg) int64 {
				if m.Type() == "RequestAccess" && to != from-3 {
					return 2
				}
				return 1
			}
			for j := 4; j <= 6; j++ {
				d.At(0, j, node.CmdRequest)
			}
			if !d.Run(10000) {
				t.Fatalf("did not quiesce: %q", d.Trace)
			}
			if len(d.Entries) != tc.entries || d.Overlaps != 0 || d.AllDone() != (tc.entries > 0) {
				t.Errorf("entries %v, overlaps %d, all done %v\n%q", d.Entries, d.Overlaps, d.AllDone(), d.Trace)
			}
			if tc.retry == 0 && (d.Counts["ResponseOK"] != 3 || d.Counts["RequestAccess"] != 9) {
				t.Errorf("deadlock counts %v, want 9 RequestAccess and 3 ResponseOK", d.Counts)
			}
		})
	}
}

// Mutual exclusion, no deadlock and no starvation over random delays (links reorder), request times and
// CS lengths, with retries to break split votes: never two in the CS without
// amnesia, and every request is served.
func TestRandomOrders(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 5).Draw(rt, "n")
		cfg := Config{Coordinators: n, Participants: rapid.IntRange(1, 4).Draw(rt, "p"),
			M: rapid.IntRange(n/2+1, n).Draw(rt, "m"), RetryTimeout: 60}
		d := mutextest.New(rt, mutextest.Must(rt, Factory, cfg), cfg.Nodes())
		d.Delay = func(int, int, node.Msg) int64 { return rapid.Int64Range(1, 5).Draw(rt, "delay") }
		total := 0
		for i := n + 1; i <= cfg.Nodes(); i++ {
			d.Hold[i] = rapid.Int64Range(0, 3).Draw(rt, "hold")
			for range rapid.IntRange(0, 3).Draw(rt, "requests") {
				d.At(rapid.Int64Range(0, 30).Draw(rt, "when"), i, node.CmdRequest)
				total++
			}
		}
		if !d.Run(200000) || !d.AllDone() {
			rt.Fatalf("did not end: %q", d.Trace)
		}
		if d.Overlaps != 0 || len(d.Entries) != total {
			rt.Fatalf("overlaps %d, entries %d of %d\n%q", d.Overlaps, len(d.Entries), total, d.Trace)
		}
	})
}

// P_v: the chapter's figure for n=32, m=24, P=1e-4 (~7.35e-59),
// and hand-checked small cases: n=3, m=2: 2P-P^2; n=5, m=3: 1-(1-P)^3;
// m=n: P^n (the whole quorum must fail).
func TestViolationProbability(t *testing.T) {
	for _, tc := range []struct {
		n, m int
		p    float64
		want float64
	}{
		{32, 24, 1e-4, 7.35e-59},
		{3, 2, 0.1, 0.19},
		{5, 3, 0.5, 0.875},
		{4, 4, 0.5, 0.0625},
		{3, 2, 0, 0},
		{3, 2, 1, 1},
		{1, 1, 0.25, 0.25},
	} {
		got := ViolationProbability(tc.n, tc.m, tc.p)
		tol := 1e-12
		if tc.n == 32 {
			tol = 0.01 * tc.want // the chapter gives three digits
		}
		if math.Abs(got-tc.want) > tol {
			t.Errorf("ViolationProbability(%d, %d, %g) = %g, want %g", tc.n, tc.m, tc.p, got, tc.want)
		}
	}
	for _, bad := range []struct {
		n, m int
		p    float64
	}{{3, 1, 0.1}, {3, 4, 0.1}, {3, 2, -0.1}, {3, 2, 1.5}, {3, 2, math.NaN()}} {
		if got := ViolationProbability(bad.n, bad.m, bad.p); !math.IsNaN(got) {
			t.Errorf("ViolationProbability(%d, %d, %g) = %g, want NaN", bad.n, bad.m, bad.p, got)
		}
	}
}

// Decision (coordinator): a duplicated RequestAccess for a request already
// authorized or queued is not queued twice.
func TestDuplicateRequestAccess(t *testing.T) {
	c, err := New(Config{Coordinators: 1, Participants: 2, M: 1, Index: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out node.Output
	for _, p := range []int{2, 2, 3, 3} {
		c.Step(node.Input{Kind: node.InMsg, From: p, Msg: Msg{Kind: MsgRequestAccess, Part: p, Seq: 1}}, &out)
	}
	if len(out.Sends) != 1 || c.Status().Queue != 1 || c.Status().State != StateBusy {
		t.Errorf("sends %v, status %+v", out.Sends, c.Status())
	}
}
