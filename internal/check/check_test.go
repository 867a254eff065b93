package check

import (
	"fmt"
	"strings"
	"testing"

	"ringlab/internal/trace"
)

func leader(node, id int) *trace.Event {
	return &trace.Event{Node: node, Kind: trace.KindLeader, Leader: &id}
}

func ev(node int, kind string) *trace.Event { return &trace.Event{Node: node, Kind: kind} }

func TestUniquenessSeesSplitBrainAndHealing(t *testing.T) {
	ids := []int{10, 20, 30}
	u := NewUniqueness(ids)
	if d := u.Observe(leader(1, 20)); d != "" { // node 1 follows node 2
		t.Fatal(d)
	}
	if d := u.Observe(leader(2, 20)); d != "" { // node 2 declares itself
		t.Fatal(d)
	}
	if d := u.Observe(leader(3, 30)); d == "" { // node 3 too: split-brain
		t.Fatal("two self-declared leaders not reported")
	}
	u.Observe(leader(2, 30)) // node 2 gives way: healed, but it happened
	if v := u.Finish(End{}); v.OK {
		t.Fatalf("a split-brain that healed still broke uniqueness: %+v", v)
	}

	u = NewUniqueness(ids)
	u.Observe(leader(2, 20))
	u.Observe(ev(2, trace.KindCrash)) // a dead leader does not count
	if d := u.Observe(leader(3, 30)); d != "" {
		t.Fatalf("crashed node counted: %s", d)
	}
	if v := u.Finish(End{}); !v.OK {
		t.Fatalf("%+v", v)
	}
}

func TestAgreementAndCorrectness(t *testing.T) {
	ids := []int{5, 3, 7}
	a, c := NewAgreement(3, ids), NewCorrectness(ids, 3, "the smallest id")
	for _, e := range []*trace.Event{leader(1, 3), leader(2, 3), leader(3, 3)} {
		a.Observe(e)
		c.Observe(e)
	}
	if v := a.Finish(End{}); !v.OK {
		t.Fatalf("agreement: %+v", v)
	}
	if v := c.Finish(End{}); !v.OK {
		t.Fatalf("correctness: %+v", v)
	}
	a.Observe(ev(3, trace.KindRecover)) // amnesia: node 3 knows no leader now
	if v := a.Finish(End{}); v.OK {
		t.Fatal("a recovered node without a leader passed agreement")
	}
	c2 := NewCorrectness(ids, 3, "the smallest id")
	c2.Observe(leader(1, 7))
	if v := c2.Finish(End{}); v.OK {
		t.Fatal("wrong leader passed correctness")
	}
}

func TestMutualExclusionForgetsCrashedHolder(t *testing.T) {
	m := &MutualExclusion{}
	m.Observe(ev(1, trace.KindEnterCS))
	m.Observe(ev(1, trace.KindCrash))
	if d := m.Observe(ev(2, trace.KindEnterCS)); d != "" {
		t.Fatalf("a crashed holder still counted: %s", d)
	}
	if d := m.Observe(ev(3, trace.KindEnterCS)); d == "" {
		t.Fatal("two live nodes in the CS not reported")
	}
}

func TestSetFillsDetail(t *testing.T) {
	s := NewSet(&MutualExclusion{})
	s.Observe(ev(1, trace.KindEnterCS))
	if vs := s.Observe(ev(2, trace.KindEnterCS)); len(vs) != 1 {
		t.Fatalf("violations %v", vs)
	}
	v := s.Finish(End{})[0]
	if v.OK || v.Detail == "" {
		t.Fatalf("verdict %+v", v)
	}
}

// With vector clocks, mutual exclusion is judged by happens-before: node 2
// entering after node 1's exit in the order the events were seen, but
// with no message from node 1's exit to node 2's entry, is a violation
// (on another run the two overlap); the same entry after a message that
// carries node 1's exit clock is not.
func TestMutualExclusionByHappensBefore(t *testing.T) {
	ev := func(node int, kind string, vc ...uint32) *trace.Event {
		return &trace.Event{Node: node, Kind: kind, VC: vc}
	}
	t.Run("unordered", func(t *testing.T) {
		var m MutualExclusion
		m.SetNames(func(i int) string { return fmt.Sprintf("P%d", i) })
		for _, e := range []*trace.Event{ev(1, trace.KindEnterCS, 1, 0), ev(1, trace.KindExitCS, 2, 0)} {
			if d := m.Observe(e); d != "" {
				t.Fatalf("node 1 alone: %s", d)
			}
		}
		d := m.Observe(ev(2, trace.KindEnterCS, 0, 1)) // knows nothing of node 1's exit
		if !strings.Contains(d, "P1 and P2 are not ordered by happens-before: P1's exit") {
			t.Fatalf("violation = %q", d)
		}
		if v := m.Finish(End{}); v.OK {
			t.Fatalf("verdict %+v, want a failure", v)
		}
	})
	t.Run("ordered", func(t *testing.T) {
		var m MutualExclusion
		for _, e := range []*trace.Event{
			ev(1, trace.KindEnterCS, 1, 0), ev(1, trace.KindExitCS, 2, 0),
			ev(2, trace.KindEnterCS, 3, 2), // after receiving node 1's message sent at (3,0)
			ev(2, trace.KindExitCS, 3, 3),
			ev(1, trace.KindEnterCS, 5, 3),
		} {
			if d := m.Observe(e); d != "" {
				t.Fatalf("ordered sections flagged: %s", d)
			}
		}
		if v := m.Finish(End{}); !v.OK || !strings.Contains(v.Detail, "happens-before") {
			t.Fatalf("verdict %+v", v)
		}
	})
	t.Run("crash forgets", func(t *testing.T) {
		var m MutualExclusion
		for _, e := range []*trace.Event{
			ev(1, trace.KindEnterCS, 1, 0), ev(1, trace.KindExitCS, 2, 0), ev(1, trace.KindCrash, 3, 0),
			ev(2, trace.KindEnterCS, 0, 1), // a regenerated token after a real crash is right
		} {
			if d := m.Observe(e); d != "" {
				t.Fatalf("flagged after a crash: %s", d)
			}
		}
	})
}
