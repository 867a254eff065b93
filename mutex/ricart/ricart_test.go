package ricart

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
		{Name: "ids", Cfg: Config{N: 3, Ids: []int{7, 0, 3}}, Want: ""},
		{Name: "no nodes", Cfg: Config{N: 0}, Want: "number of nodes must be 1..1024"},
		{Name: "too many", Cfg: Config{N: MaxNodes + 1}, Want: "number of nodes must be 1..1024"},
		{Name: "ids count", Cfg: Config{N: 3, Ids: []int{1, 2}}, Want: "2 ids given for 3 nodes"},
		{Name: "duplicate id", Cfg: Config{N: 3, Ids: []int{1, 2, 1}}, Want: "id 1 appears twice"},
		{Name: "negative id", Cfg: Config{N: 2, Ids: []int{1, -2}}, Want: "ids must be >= 0"},
		{Name: "timeout missing", Cfg: Config{N: 2, TimeoutAsReply: true}, Want: "at least 1 tick"},
	})
	if _, err := New(Config{N: 3, Index: 4}); err == nil || !strings.Contains(err.Error(), "1..3") {
		t.Fatalf("New with index 4 of 3: %v", err)
	}
}

func TestMessagesPerEntry(t *testing.T) {
	for _, tt := range []struct {
		n         int
		broadcast bool
		want      int
	}{{1, false, 0}, {2, false, 2}, {6, false, 10}, {3, true, 6}, {6, true, 15}} {
		if got := MessagesPerEntry(tt.n, tt.broadcast); got != tt.want {
			t.Errorf("MessagesPerEntry(%d, %v) = %d, want %d", tt.n, tt.broadcast, got, tt.want)
		}
	}
}

// TestExampleN32N12N80 replays the Ricart-Agrawala example with N32, N12 and
// N80 decision by
// decision: N32 enters alone; N12 requests with (115, 12) and N80 with
// (110, 80); N3, N5, N6 reply at once; N32 (HELD) queues both; N80 (WANTED,
// 110 < 115) queues N12's request; N12 replies to N80; N32 exits and replies
// to both: N80 enters with N-1 replies while N12 has N-2; N80 exits; N12
// enters.
func TestExampleN32N12N80(t *testing.T) {
	const n3, n5, n6, n12, n32, n80 = 1, 2, 3, 4, 5, 6 // indices
	h := newHarness(t, Config{N: 6, Ids: []int{3, 5, 6, 12, 32, 80}})
	expect := func(step string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\n got %q\nwant %q", step, got, want)
		}
	}

	h.Cmd(n32, node.CmdRequest)
	h.Drain()
	if st := h.Nodes[n32].Status(); st.State != StateHeld || st.Replies != 5 {
		t.Fatalf("N32 alone: %+v, want HELD with N-1 = 5 replies", st)
	}

	for _, a := range []node.Action{RequestAt(0, n12, 115), RequestAt(0, n80, 110)} {
		h.Step(a.Node, node.Input{Kind: node.InCmd, Cmd: a.Cmd, Arg: a.Arg})
	}
	if a, b := h.Nodes[n12].Status().RequestT, h.Nodes[n80].Status().RequestT; a != 115 || b != 110 {
		t.Fatalf("request timestamps N12 %d, N80 %d; want 115, 110", a, b)
	}
	m := h.Mark()
	for _, idle := range []int{n3, n5, n6} {
		h.Deliver(t, n12, idle, "")
		h.Deliver(t, n80, idle, "")
	}
	expect("N3, N5, N6 reply at once", h.Since(m), []string{
		"N3 -> N12 REPLY", "N3 -> N80 REPLY", "N5 -> N12 REPLY",
		"N5 -> N80 REPLY", "N6 -> N12 REPLY", "N6 -> N80 REPLY",
	})
	for _, idle := range []int{n3, n5, n6} {
		h.Deliver(t, idle, n12, "")
		h.Deliver(t, idle, n80, "")
	}
	if a, b := h.Nodes[n12].Status().Replies, h.Nodes[n80].Status().Replies; a != 3 || b != 3 {
		t.Fatalf("replies N12 %d, N80 %d; want 3 each", a, b)
	}

	m = h.Mark()
	h.Deliver(t, n12, n32, "")
	h.Deliver(t, n80, n32, "")
	expect("N32 (HELD) queues both", h.Since(m), nil)
	if got := h.Nodes[n32].Status().Deferred; !slices.Equal(got, []int{n12, n80}) {
		t.Fatalf("N32 deferred %v, want [N12 N80]", got)
	}

	h.Deliver(t, n12, n80, "") // N80 receives N12's request first
	expect("N80 (WANTED, 110 < 115) queues N12", h.Since(m), nil)
	h.Deliver(t, n80, n12, "")
	expect("N12 (WANTED, 110 < 115) replies to N80", h.Since(m), []string{"N12 -> N80 REPLY"})
	h.Deliver(t, n12, n80, "")
	if got := h.Nodes[n80].Status().Replies; got != 4 {
		t.Fatalf("N80 has %d replies, want N-2 = 4 (waiting for N32)", got)
	}

	m = h.Mark()
	h.Cmd(n32, node.CmdRelease)
	h.Deliver(t, n32, n80, "")
	h.Deliver(t, n32, n12, "")
	expect("N32 exits, replies to both; N80 enters", h.Since(m), []string{
		"N32 exit", "N32 -> N12 REPLY", "N32 -> N80 REPLY", "N80 enter",
	})
	if st := h.Nodes[n12].Status(); st.State != StateWanted || st.Replies != 4 {
		t.Fatalf("N12 %+v, want WANTED with N-2 = 4 replies", st)
	}

	m = h.Mark()
	h.Cmd(n80, node.CmdRelease)
	h.Drain()
	expect("N80 exits, replies to N12, which enters", h.Since(m), []string{
		"N80 exit", "N80 -> N12 REPLY", "N12 enter",
	})
	h.Cmd(n12, node.CmdRelease)
	if want := [][2]int{{1, 32}, {110, 80}, {115, 12}}; !slices.Equal(h.Entries, want) {
		t.Fatalf("entries (T, id) %v, want %v", h.Entries, want)
	}
	if h.Counts["REQUEST"] != 15 || h.Counts["REPLY"] != 15 {
		t.Fatalf("counts %v, want 3 entries x 2(N-1) = 15 REQUEST + 15 REPLY", h.Counts)
	}
}

// TestExampleABC replays the A, B, C example: A requests and
// enters; B requests while A holds; A defers B, C replies; A exits and replies
// to B; B enters. With the course variant's release broadcast it costs 3(N-1) per entry,
// without it 2(N-1).
func TestExampleABC(t *testing.T) {
	const a, b, c = 1, 2, 3
	for _, tt := range []struct {
		broadcast bool
		after     []string // what A's exit sends and what follows
		counts    map[string]int
	}{
		{false, []string{"N1 exit", "N1 -> N2 REPLY", "N2 enter"},
			map[string]int{"REQUEST": 4, "REPLY": 4}},
		{true, []string{"N1 exit", "N1 -> N2 REPLY", "N1 -> N2 RELEASE", "N1 -> N3 RELEASE", "N2 enter"},
			map[string]int{"REQUEST": 4, "REPLY": 4, "RELEASE": 4}},
	} {
		h := newHarness(t, Config{N: 3, ReleaseBroadcast: tt.broadcast})
		h.Cmd(a, node.CmdRequest)
		h.Drain()
		m := h.Mark()
		h.Cmd(b, node.CmdRequest)
		h.Deliver(t, b, a, "")
		h.Deliver(t, b, c, "")
		h.Drain()
		want := []string{"N2 -> N1 REQUEST", "N2 -> N3 REQUEST", "N3 -> N2 REPLY"}
		if got := h.Since(m); !slices.Equal(got, want) {
			t.Fatalf("broadcast=%v: B requests while A holds: got %q, want %q (A defers)", tt.broadcast, got, want)
		}
		m = h.Mark()
		h.Cmd(a, node.CmdRelease)
		h.Drain()
		if got := h.Since(m); !slices.Equal(got, tt.after) {
			t.Fatalf("broadcast=%v: A exits: got %q, want %q", tt.broadcast, got, tt.after)
		}
		h.Cmd(b, node.CmdRelease)
		if len(h.Counts) != len(tt.counts) || h.Counts["REQUEST"] != tt.counts["REQUEST"] ||
			h.Counts["REPLY"] != tt.counts["REPLY"] || h.Counts["RELEASE"] != tt.counts["RELEASE"] {
			t.Fatalf("broadcast=%v: counts %v, want %v = 2 entries x MessagesPerEntry", tt.broadcast, h.Counts, tt.counts)
		}
	}
}

// TestTimeoutAsReply is the course variant's fault handling ("a peer that does not
// answer within a timeout is counted as having replied"): when the silent
// peer is only slow — here A, still HELD — B enters too (the lab
// shows that). When A leaves before the timer fires, nothing goes wrong.
func TestTimeoutAsReply(t *testing.T) {
	const a, b = 1, 2
	for _, tt := range []struct {
		name        string
		slow        bool
		wantOverlap bool
	}{{"peer slower than the timeout", true, true}, {"peer within the timeout", false, false}} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Config{N: 3, TimeoutAsReply: true, Timeout: 5})
			h.Cmd(a, node.CmdRequest)
			h.Drain()
			h.Cmd(b, node.CmdRequest)
			h.Drain() // A defers B, C replies
			if !tt.slow {
				h.Cmd(a, node.CmdRelease)
				h.Drain()
				if h.Timers[b] {
					t.Fatal("B entered with every reply but its timer is still set")
				}
				h.Cmd(b, node.CmdRelease)
				return
			}
			h.Fire(t, b, timerReplies) // A has not answered within 5 ticks
			if h.Overlap != tt.wantOverlap || !slices.Equal(h.InCS, []int{a, b}) {
				t.Fatalf("in the CS: %v (overlap %v), want A and B at once", h.InCS, h.Overlap)
			}
			h.Cmd(a, node.CmdRelease)
			h.Drain() // A's late reply is not counted for a later request
			h.Cmd(b, node.CmdRelease)
			h.Cmd(b, node.CmdRequest)
			if st := h.Nodes[b].Status(); st.Replies != 0 {
				t.Fatalf("B's new request starts with %d replies, want 0", st.Replies)
			}
		})
	}
}

// TestRememberedRequest: the algorithm allows one outstanding request per node;
// a CmdRequest while WANTED or HELD is issued right after the release.
func TestRememberedRequest(t *testing.T) {
	h := newHarness(t, Config{N: 2})
	h.Cmd(1, node.CmdRequest)
	h.Cmd(1, node.CmdRequest) // WANTED: remembered
	h.Drain()
	h.Cmd(1, node.CmdRelease)
	h.Drain()
	h.Cmd(1, node.CmdRelease)
	h.Cmd(1, node.CmdRelease) // not HELD: ignored
	want := []string{"N1 -> N2 REQUEST", "N2 -> N1 REPLY", "N1 enter", "N1 exit",
		"N1 -> N2 REQUEST", "N2 -> N1 REPLY", "N1 enter", "N1 exit"}
	if !slices.Equal(h.Log, want) {
		t.Fatalf("got %q, want %q", h.Log, want)
	}
}

// TestRandomSchedules sweeps fully random delivery orders (RA needs no FIFO)
// and workloads: mutual exclusion, every request granted, entries in strictly
// increasing (T, id) order (the paper's ordering property), and exactly
// MessagesPerEntry messages per entry.
func TestRandomSchedules(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		n := 1 + rng.IntN(6)
		ids := rng.Perm(3 * n)[:n]
		cfg := Config{N: n, Ids: ids, ReleaseBroadcast: seed%2 == 1}
		h := newHarness(t, cfg)
		quota := 1 + rng.IntN(3)
		h.RunRandom(rng, mutextest.Quota(n, quota), false)
		if h.Overlap {
			t.Fatalf("seed %d %+v: two nodes in the CS at once", seed, cfg)
		}
		if len(h.Entries) != n*quota || len(h.InCS) != 0 {
			t.Fatalf("seed %d %+v: %d entries, want %d", seed, cfg, len(h.Entries), n*quota)
		}
		for k := 1; k < len(h.Entries); k++ {
			p, q := h.Entries[k-1], h.Entries[k]
			if !Before(p[0], p[1], q[0], q[1]) {
				t.Fatalf("seed %d: entries out of (T, id) order: %v", seed, h.Entries)
			}
		}
		total := 0
		for _, c := range h.Counts {
			total += c
		}
		if want := len(h.Entries) * MessagesPerEntry(n, cfg.ReleaseBroadcast); total != want {
			t.Fatalf("seed %d %+v: %d messages (%v), want %d", seed, cfg, total, h.Counts, want)
		}
	}
}
