package tokenring

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"ringlab/engine/node"
	"ringlab/mutex/internal/mutextest"
)

// start schedules CmdStart for every node at time 0, after anything already
// scheduled then, as the runtimes do.
func start(d *mutextest.Driver, n int) {
	for i := 1; i <= n; i++ {
		d.At(0, i, node.CmdStart)
	}
}

func TestConfigErrors(t *testing.T) {
	mutextest.CheckConfigs(t, Factory, []mutextest.ConfigCase[Config]{
		{Cfg: Config{N: 1}, Want: "at least 2 nodes"},
		{Cfg: Config{N: 3, StartWith: 4}, Want: "1..3"},
		{Cfg: Config{N: 3, Requests: []int{1, 1}}, Want: "one count per node (3), got 2"},
		{Cfg: Config{N: 2, Requests: []int{1, -1}}, Want: "node 2: -1"},
		{Cfg: Config{N: 2, RegenTimeout: -1}, Want: "regen timeout -1"},
	})
}

// The course chapter's token-ring diagram, in which only Part1 and Part3 use the resource:
// the token goes 1->2->3 (Part3 enters) ->4->1 (Part1 enters) ->2->3 (Part3
// enters again). Here node 3 then retires the token: everybody is finished.
func TestChapterDiagram(t *testing.T) {
	d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: 4, Requests: []int{1, 0, 2, 0}}), 4)
	d.At(0, 3, node.CmdRequest)
	d.At(0, 3, node.CmdRequest)
	start(d, 4)
	d.At(2, 1, node.CmdRequest)
	if !d.Run(1000) || !d.AllDone() {
		t.Fatalf("did not end: %q", d.Trace)
	}
	var hops []string
	for _, l := range d.Trace {
		if strings.HasSuffix(l, " TOKEN") {
			hops = append(hops, strings.TrimSuffix(l, " TOKEN"))
		}
	}
	if want := []string{"1->2", "2->3", "3->4", "4->1", "1->2", "2->3"}; !slices.Equal(hops, want) {
		t.Errorf("token hops %q, want %q", hops, want)
	}
	if !slices.Equal(d.Entries, []int{3, 1, 3}) || d.Overlaps != 0 || d.Notes("token 1.0 retired") != 1 {
		t.Errorf("entries %v, overlaps %d\n%q", d.Entries, d.Overlaps, d.Trace)
	}
}

// 1 to N messages per entry. Exact TOKEN counts:
//   - everybody wants once: the holder enters with no message, then one hop per entry;
//   - full load (R requests each): one hop per entry, the last one retires;
//   - a lone requester at the holder: N hops per entry after the first;
//   - a lone requester at the far end: N-1 hops for its single entry.
func TestTokenCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reqs   []int
		tokens int
	}{
		{"each once n=2", []int{1, 1}, 1},
		{"each once n=3", []int{1, 1, 1}, 2},
		{"each once n=8", []int{1, 1, 1, 1, 1, 1, 1, 1}, 7},
		{"full load 4x3", []int{3, 3, 3, 3}, 11},
		{"lone holder n=5 x3", []int{3, 0, 0, 0, 0}, 10},
		{"lone far end n=5", []int{0, 0, 0, 0, 1}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.reqs)
			d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: n, Requests: tc.reqs}), n)
			entries := 0
			for i, r := range tc.reqs {
				for range r {
					d.At(0, i+1, node.CmdRequest)
				}
				entries += r
			}
			start(d, n)
			if !d.Run(10000) || !d.AllDone() {
				t.Fatalf("did not end: %q", d.Trace)
			}
			if d.Counts["TOKEN"] != tc.tokens || len(d.Entries) != entries || d.Overlaps != 0 {
				t.Errorf("TOKEN %d want %d, entries %d want %d, overlaps %d",
					d.Counts["TOKEN"], tc.tokens, len(d.Entries), entries, d.Overlaps)
			}
		})
	}
}

// The mutual-exclusion properties over random workloads, CS lengths and delays: one token
// created and retired, never two nodes in the CS, every request served, the
// run ends with every node done.
func TestRandomWorkloads(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(rt, "n")
		reqs := rapid.SliceOfN(rapid.IntRange(0, 3), n, n).Draw(rt, "requests")
		cfg := Config{N: n, Requests: reqs, StartWith: rapid.IntRange(1, n).Draw(rt, "start")}
		d := mutextest.New(rt, mutextest.Must(rt, Factory, cfg), n)
		d.Delay = func(int, int, node.Msg) int64 { return rapid.Int64Range(1, 4).Draw(rt, "delay") }
		total := 0
		for i, r := range reqs {
			d.Hold[i+1] = rapid.Int64Range(0, 3).Draw(rt, "hold")
			for range r {
				d.At(rapid.Int64Range(0, 40).Draw(rt, "when"), i+1, node.CmdRequest)
			}
			total += r
		}
		start(d, n)
		if !d.Run(100000) || !d.AllDone() {
			rt.Fatalf("did not end: %q", d.Trace)
		}
		if d.Overlaps != 0 || len(d.Entries) != total || d.Notes("created") != 1 || d.Notes("retired") != 1 ||
			d.Counts["TOKEN"] < total-1 {
			rt.Fatalf("overlaps %d, entries %d of %d, TOKEN %d\n%q", d.Overlaps, len(d.Entries), total, d.Counts["TOKEN"], d.Trace)
		}
	})
}

// The chapter's faults. Node 2 takes the token and crashes in the CS.
//   - no regeneration: the token is lost; nodes 3 and 4 wait forever (the run
//     stops with nothing in flight and them not done);
//   - regeneration after 20 ticks: node 3 (waiting since t=2) creates a token
//     at t=22 and passes it to node 4 before node 4's timer (t=25) fires; the
//     new token is lost again at node 2 (a crashed node breaks the ring);
//   - a false timeout: node 1 is only slow (20 ticks in the CS), node 2
//     regenerates after 6 and enters while node 1 is inside: two tokens, the
//     violation; both tokens are retired at the end.
func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		name     string
		regen    int64
		crash    bool
		entries  []int
		overlaps int
		regens   int
		retired  int
	}{
		{"lost token", 0, true, []int{2}, 0, 0, 0},
		{"regenerated after a crash", 20, true, []int{2, 3, 4}, 0, 1, 0},
		{"false timeout", 6, false, []int{1, 2}, 1, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reqs := []int{0, 1, 1, 1}
			if !tc.crash {
				reqs = []int{1, 1, 0, 0}
			}
			d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: 4, Requests: reqs, RegenTimeout: tc.regen}), 4)
			if tc.crash {
				d.Hold[2] = -1
				d.At(0, 2, node.CmdRequest)
				d.At(2, 3, node.CmdRequest)
				d.At(5, 4, node.CmdRequest)
			} else {
				d.Hold[1] = 20
				d.At(0, 1, node.CmdRequest)
				d.At(0, 2, node.CmdRequest)
			}
			start(d, 4)
			if tc.crash {
				d.RunUntil(func() bool { return d.InCS[2] }, 100)
				d.Crash(2)
			}
			if !d.Run(10000) {
				t.Fatalf("did not quiesce: %q", d.Trace)
			}
			if !slices.Equal(d.Entries, tc.entries) || d.Overlaps != tc.overlaps ||
				d.Notes("regenerated") != tc.regens || d.Notes("retired") != tc.retired {
				t.Errorf("entries %v, overlaps %d, regenerated %d, retired %d\n%q",
					d.Entries, d.Overlaps, d.Notes("regenerated"), d.Notes("retired"), d.Trace)
			}
			if done := d.AllDone(); done != (tc.regen > 0) {
				t.Errorf("all done = %v", done)
			}
		})
	}
}

// Decision (package doc): a node rebuilt after a crash holds no token, even
// the one built with it.
func TestRecoverDropsToken(t *testing.T) {
	d := mutextest.New(t, mutextest.Must(t, Factory, Config{N: 3}), 3)
	d.Restart(1)
	d.Cmd(1, node.CmdStart)
	if d.Pending() != 0 || !d.AllDone() || d.Notes("created") != 0 {
		t.Errorf("pending %d, trace %q", d.Pending(), d.Trace)
	}
}
