package central

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"ringlab/engine/node"
	"ringlab/mutex/internal/mutextest"
)

// A coordinator and at least one participant; bad values are
// rejected with a message naming the allowed range.
func TestConfigErrors(t *testing.T) {
	mutextest.CheckConfigs(t, Factory, []mutextest.ConfigCase[Config]{
		{Cfg: Config{N: 1}, Want: "at least 2 nodes"},
		{Cfg: Config{N: 3, Coordinator: 4}, Want: "1..3"},
		{Cfg: Config{N: 3, Coordinator: -1}, Want: "1..3"},
		{Cfg: Config{N: 3, Timeout: -5}, Want: "timeout -5"},
	})
	if _, err := New(Config{N: 3, Index: 0}); err == nil {
		t.Error("New with index 0: want an error")
	}
}

// The course chapter's coordinator diagram with Part1..Part3 (nodes 2..4): the
// coordinator grants Part1, Part2, Part3 in the order their requests arrived,
// answers every RequestFree with ResponseFree, and goes BUSY/FREE as drawn.
func TestChapterDiagram(t *testing.T) {
	d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: 4}), 4)
	d.Hold = map[int]int64{2: -1, 3: -1, 4: -1}
	d.Cmd(2, node.CmdRequest)
	d.Deliver(2, 1) // Recurso=livre/Fila=[Part1] -> ocupado/[]
	d.Cmd(3, node.CmdRequest)
	d.Deliver(3, 1) // ocupado/[Part2]
	d.Deliver(1, 2) // Part1 in the CS
	d.Cmd(2, node.CmdRelease)
	d.Deliver(2, 1) // livre/[Part2]; ResponseFree; ResponseOK to Part2
	d.Deliver(1, 2)
	d.Cmd(4, node.CmdRequest)
	d.Deliver(4, 1) // ocupado/[Part3]
	d.Deliver(1, 3) // Part2 in the CS
	d.Cmd(3, node.CmdRelease)
	d.Deliver(3, 1)
	d.Deliver(1, 3)
	d.Deliver(1, 4) // Part3 in the CS
	d.Cmd(4, node.CmdRelease)
	d.Deliver(4, 1)
	d.Deliver(1, 4)
	want := []string{
		"n2 WANTED", "2->1 RequestAccess", "n1 BUSY",
		"n3 WANTED", "3->1 RequestAccess",
		"1->2 ResponseOK", "n2 HELD", "n2 enter_cs", "n2 exit_cs", "n2 RELEASED",
		"2->1 RequestFree", "n1 FREE", "n1 BUSY", "1->2 ResponseFree",
		"n4 WANTED", "4->1 RequestAccess",
		"1->3 ResponseOK", "n3 HELD", "n3 enter_cs", "n3 exit_cs", "n3 RELEASED",
		"3->1 RequestFree", "n1 FREE", "n1 BUSY", "1->3 ResponseFree",
		"1->4 ResponseOK", "n4 HELD", "n4 enter_cs", "n4 exit_cs", "n4 RELEASED",
		"4->1 RequestFree", "n1 FREE", "1->4 ResponseFree",
	}
	if !slices.Equal(d.Trace, want) {
		t.Errorf("trace:\n got %q\nwant %q", d.Trace, want)
	}
	if !slices.Equal(d.Entries, []int{2, 3, 4}) || !d.AllDone() || d.Pending() > 0 {
		t.Errorf("entries %v, all done %v, pending %d", d.Entries, d.AllDone(), d.Pending())
	}
}

// Exactly 4 messages per entry (one of each kind), whoever the
// coordinator is and however many requests each participant makes; further
// requests while busy are queued locally and served in turn.
func TestFourMessagesPerEntry(t *testing.T) {
	for _, tc := range []struct{ n, coord, reqs int }{
		{2, 1, 1}, {3, 1, 1}, {5, 1, 1}, {8, 1, 1}, {5, 3, 1}, {4, 4, 3}, {6, 1, 4},
	} {
		d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: tc.n, Coordinator: tc.coord}), tc.n)
		for i := 1; i <= tc.n; i++ {
			for range tc.reqs {
				if i != tc.coord {
					d.At(0, i, node.CmdRequest)
				}
			}
		}
		if !d.Run(100000) {
			t.Fatalf("%+v: did not quiesce", tc)
		}
		e := (tc.n - 1) * tc.reqs
		want := map[string]int{"RequestAccess": e, "ResponseOK": e, "RequestFree": e, "ResponseFree": e}
		if len(d.Entries) != e || d.Overlaps != 0 || !maps.Equal(d.Counts, want) || !d.AllDone() {
			t.Errorf("%+v: entries %d (want %d), overlaps %d, counts %v, all done %v",
				tc, len(d.Entries), e, d.Overlaps, d.Counts, d.AllDone())
		}
	}
}

// Mutual exclusion, no deadlock and no starvation over random delays, request times and CS lengths,
// with no timeout or a timeout longer than any hold plus a round trip:
// never two in the CS, every request served, 4 messages per entry.
func TestRandomOrders(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(rt, "n")
		cfg := Config{N: n, Coordinator: rapid.IntRange(1, n).Draw(rt, "coordinator")}
		if rapid.Bool().Draw(rt, "timeout") {
			cfg.Timeout = 20 // > hold 4 + 2 * delay 5
		}
		d := mutextest.New(rt, mutextest.Must(rt, Factory, cfg), n)
		d.Delay = func(int, int, node.Msg) int64 { return rapid.Int64Range(1, 5).Draw(rt, "delay") }
		total := 0
		for i := 1; i <= n; i++ {
			d.Hold[i] = rapid.Int64Range(0, 4).Draw(rt, "hold")
			for range rapid.IntRange(0, 3).Draw(rt, "requests") {
				if i != cfg.Coordinator {
					d.At(rapid.Int64Range(0, 30).Draw(rt, "when"), i, node.CmdRequest)
					total++
				}
			}
		}
		if !d.Run(100000) {
			rt.Fatal("did not quiesce")
		}
		if d.Overlaps != 0 || len(d.Entries) != total || d.Counts["ResponseFree"] != total ||
			d.Counts["RequestAccess"]+d.Counts["ResponseOK"]+d.Counts["RequestFree"] != 3*total || !d.AllDone() {
			rt.Fatalf("overlaps %d, entries %d of %d, counts %v, all done %v",
				d.Overlaps, len(d.Entries), total, d.Counts, d.AllDone())
		}
	})
}

// The chapter's fault handling: the coordinator takes the permission back
// after Timeout ticks. Node 2 is granted first; nodes 3 and 4 wait.
//   - crashed: node 2 dies in the CS; the queue moves on, and among live
//     nodes there is never more than one in the CS (correct);
//   - slow: node 2 stays 15 ticks > Timeout 10; node 3 is let in while node 2
//     is still inside: the violation. Node 2's late RequestFree is ignored, so
//     node 4 still waits for node 3 (one overlap, not two).
func TestTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		crash    bool
		overlaps int
		entries  []int
	}{
		{"crashed holder", true, 0, []int{2, 3, 4}},
		{"slow holder", false, 1, []int{2, 3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: 4, Timeout: 10}), 4)
			d.Hold = map[int]int64{2: 15, 3: 6, 4: 1}
			d.At(0, 2, node.CmdRequest)
			d.At(1, 3, node.CmdRequest)
			d.At(1, 4, node.CmdRequest)
			if tc.crash {
				d.RunUntil(func() bool { return d.InCS[2] }, 100)
				if !d.InCS[2] {
					t.Fatalf("node 2 not in the CS: %q", d.Trace)
				}
				d.Crash(2)
			}
			if !d.Run(1000) {
				t.Fatal("did not quiesce")
			}
			if d.Overlaps != tc.overlaps || !slices.Equal(d.Entries, tc.entries) {
				t.Errorf("overlaps %d want %d, entries %v want %v\n%q", d.Overlaps, tc.overlaps, d.Entries, tc.entries, d.Trace)
			}
			if !slices.Contains(d.Trace, "n1 note: timeout: permission taken back from node 2") {
				t.Errorf("no timeout note: %q", d.Trace)
			}
			late := slices.Contains(d.Trace, "n1 note: RequestFree ignored: its sender does not hold the permission")
			if late == tc.crash {
				t.Errorf("late RequestFree ignored = %v, want %v", late, !tc.crash)
			}
		})
	}
}

// Decision (package doc): the coordinator is a pure coordinator; a release
// without the CS is ignored; both leave a note and change nothing.
func TestIgnoredCommands(t *testing.T) {
	d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: 3}), 3)
	d.Cmd(1, node.CmdRequest)
	d.Cmd(2, node.CmdRelease)
	if d.Pending() != 0 || len(d.Entries) != 0 || !d.AllDone() {
		t.Errorf("pending %d entries %v", d.Pending(), d.Entries)
	}
	if !slices.Contains(d.Trace, `n1 note: the coordinator does not use the CS: command "request" ignored`) {
		t.Errorf("trace %q", d.Trace)
	}
}

// Decision (coordinator): a duplicated RequestAccess from a participant that
// is already queued or holding is not queued twice.
func TestDuplicateRequestAccess(t *testing.T) {
	c, err := New(Config{N: 3, Index: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out node.Output
	for _, from := range []int{2, 2, 3, 3} {
		c.Step(node.Input{Kind: node.InMsg, From: from, Msg: Msg{Kind: MsgRequestAccess}}, &out)
	}
	if len(out.Sends) != 1 || !slices.Equal(c.Status().Queue, []int{3}) || c.Status().Holder != 2 {
		t.Errorf("sends %v, status %+v", out.Sends, c.Status())
	}
}

// The coordinator shows as the trace names it: BUSY while it holds a
// grant (its participant's state field stays RELEASED), the holder by
// name.
func TestShowCoordinator(t *testing.T) {
	c, _ := New(Config{N: 3, Index: 1})
	var out node.Output
	c.Step(node.Input{Kind: node.InMsg, From: 3, Msg: Msg{Kind: MsgRequestAccess}}, &out)
	name := func(i int) string { return []string{"", "coordinator", "P1", "P2"}[i] }
	sh := c.Show(name)
	if sh.State != StateBusy || len(sh.Fields) != 2 || sh.Fields[0] != (node.Field{Name: "holder", Value: "P2"}) {
		t.Errorf("the coordinator after a request: %+v", sh)
	}
	p, _ := New(Config{N: 3, Index: 2})
	if sh := p.Show(name); sh.State != StateReleased {
		t.Errorf("a participant: %+v", sh)
	}
}
