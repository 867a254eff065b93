package bully

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"ringlab/engine/node"
)

// upTo returns the ids 1..n.
func upTo(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

// The chapter's worked example: 5 is down; 2 and 3
// start at tick 0; 4 answers OK to both and 3 answers 2; 1 starts at tick 2
// and 2, 3, 4 answer; 4's ELECTION to 5 goes unanswered; 4 sends COORD(4).
func TestWorkedExample(t *testing.T) {
	w := newWorld(t, Config{Ids: upTo(5), ReplyTimeout: 3, CoordTimeout: 10}, 5)
	w.cmd(0, 2, node.CmdStart)
	w.cmd(0, 3, node.CmdStart)
	w.cmd(2, 1, node.CmdStart)
	w.run(forever)
	w.checkAgreement()
	// ELECTION: 2->3,4,5; 3->4,5; 4->5; 1->2,3,4,5. OK: 4->2, 3->2, 4->3,
	// 2->1, 3->1, 4->1. COORD: 4->1,2,3,5. Five of them were sent to 5.
	want := map[string]int{"ELECTION": 10, "OK": 6, "COORD": 4}
	if !sameCounts(w.count, want) || w.dropped != 5 {
		t.Fatalf("counts %v, %d dropped at 5; want %v, 5 dropped", w.count, w.dropped, want)
	}
	for i := 1; i <= 4; i++ {
		if !slices.Equal(w.leaders[i], []int{4}) {
			t.Fatalf("node %d leader events %v, want [4]", i, w.leaders[i])
		}
	}
	if w.last != 5 {
		t.Fatalf("the last step at tick %d, want 5: COORD(4) sent at 1+3", w.last)
	}
}

func sameCounts(got, want map[string]int) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return len(got) == len(want)
}

func TestCounts(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		starter int
		crashed []int
		want    map[string]int
	}{
		// The top needs nobody's permission: n-1 COORD.
		{"the top starts", 5, 5, nil, map[string]int{"COORD": 4}},
		// All alive, the lowest starts: n(n-1)/2 ELECTION and OK. With delay 1
		// the top declares at tick 1, so the n-2 middle ELECTIONs reach a
		// LEADER and get COORD back: (n-1)+(n-2) COORD.
		{"the lowest starts, 4 alive", 4, 1, nil, map[string]int{"ELECTION": 6, "OK": 6, "COORD": 5}},
		{"the lowest starts, 6 alive", 6, 1, nil, map[string]int{"ELECTION": 15, "OK": 15, "COORD": 9}},
		// Top crashed: 4 waits its reply timeout for nobody, then COORD(4).
		{"top crashed, 4 starts", 5, 4, []int{5}, map[string]int{"ELECTION": 1, "COORD": 4}},
		{"a single node", 1, 1, nil, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, Config{Ids: upTo(tt.n), ReplyTimeout: 3, CoordTimeout: 10}, tt.crashed...)
			w.cmd(0, tt.starter, node.CmdStart)
			w.run(forever)
			w.checkAgreement()
			if !sameCounts(w.count, tt.want) {
				t.Fatalf("counts %v, want %v", w.count, tt.want)
			}
		})
	}
	if ElectionMessages(4) != 6 || ElectionMessages(6) != 15 {
		t.Fatal("ElectionMessages disagrees with the table")
	}
}

// "A process that recovers starts an election", and the chapter's warning on
// stability: after the worked example, 5 comes back and bullies 4 away.
func TestRecoveryTakesOver(t *testing.T) {
	w := newWorld(t, Config{Ids: upTo(5), ReplyTimeout: 3, CoordTimeout: 10}, 5)
	w.cmd(0, 2, node.CmdStart)
	w.cmd(0, 3, node.CmdStart)
	w.cmd(2, 1, node.CmdStart)
	w.cmd(20, 5, node.CmdRecover)
	w.run(forever)
	w.checkAgreement()
	if w.count["COORD"] != 8 || !slices.Equal(w.leaders[1], []int{4, 5}) {
		t.Fatalf("counts %v, node 1 followed %v; want 4+4 COORD and [4 5]", w.count, w.leaders[1])
	}
}

// "Too short gives split-brain": the configuration in the package
// doc. 4's reply timeout (3) is shorter than its round trip to 5 (10).
func TestSplitBrain(t *testing.T) {
	w := newWorld(t, Config{Ids: upTo(5), ReplyTimeout: 3, CoordTimeout: 20})
	w.delay = func(from, to int) int64 {
		if from == 5 || to == 5 {
			return 5
		}
		return 1
	}
	w.cmd(0, 4, node.CmdStart)
	w.run(7)
	for i, want := range []int{0, 4, 4, 4, 4, 5} {
		if i > 0 && w.nodes[i].Status().Leader != want {
			t.Fatalf("tick 7: node %d follows %d, want %d", i, w.nodes[i].Status().Leader, want)
		}
	}
	if w.nodes[4].state != StateLeader || w.nodes[5].state != StateLeader {
		t.Fatalf("tick 7: want two LEADERs, got 4 %s and 5 %s", w.nodes[4].state, w.nodes[5].state)
	}
	w.run(forever)
	w.checkAgreement() // COORD(5) arrives at tick 10 and heals it
	// COORD(4) to all, COORD(5) on 4's ELECTION, COORD(5) again on COORD(4).
	want := map[string]int{"ELECTION": 1, "OK": 1, "COORD": 12}
	if !sameCounts(w.count, want) || !slices.Equal(w.leaders[1], []int{4, 5}) {
		t.Fatalf("counts %v, node 1 followed %v; want %v and [4 5]", w.count, w.leaders[1], want)
	}
}

// Random crashes, initiators, start ticks and delays of 1..d ticks with
// SafeTimeouts(d): the highest live id wins everywhere.
func TestRandomRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "n")
		idv := rapid.SliceOfNDistinct(rapid.IntRange(1, 100), n, n, rapid.ID).Draw(t, "ids")
		live := rapid.IntRange(1, n).Draw(t, "a live node")
		var crashed []int
		for i := 1; i <= n; i++ {
			if i != live && rapid.Bool().Draw(t, "crashed") {
				crashed = append(crashed, i)
			}
		}
		d := rapid.Int64Range(1, 4).Draw(t, "max delay")
		reply, coord := SafeTimeouts(d)
		w := newWorld(t, Config{Ids: idv, ReplyTimeout: reply, CoordTimeout: coord}, crashed...)
		w.delay = func(int, int) int64 { return rapid.Int64Range(1, d).Draw(t, "delay") }
		w.cmd(0, live, node.CmdStart)
		for _, i := range rapid.SliceOfN(rapid.IntRange(1, n), 0, n).Draw(t, "more starters") {
			w.cmd(rapid.Int64Range(0, 10).Draw(t, "at"), i, node.CmdStart)
		}
		w.run(forever)
		w.checkAgreement()
	})
}

func TestConfigErrors(t *testing.T) {
	ok := Config{Ids: []int{1, 2}, Index: 1, ReplyTimeout: 3, CoordTimeout: 10}
	bad := func(f func(*Config)) Config { c := ok; f(&c); return c }
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no ids", bad(func(c *Config) { c.Ids = nil })},
		{"duplicate id", bad(func(c *Config) { c.Ids = []int{2, 2} })},
		{"negative id", bad(func(c *Config) { c.Ids = []int{-1, 2} })},
		{"zero reply timeout", bad(func(c *Config) { c.ReplyTimeout = 0 })},
		{"zero coordinator timeout", bad(func(c *Config) { c.CoordTimeout = 0 })},
		{"index past the group", bad(func(c *Config) { c.Index = 3 })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cfg); err == nil {
				t.Fatalf("New(%+v) accepted it", tt.cfg)
			}
		})
	}
	if _, err := New(ok); err != nil {
		t.Fatal(err)
	}
}
