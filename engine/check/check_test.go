package check

import (
	"fmt"
	"strings"
	"testing"

	"ringlab/engine/trace"
)

func ev(node int, kind string) *trace.Event { return &trace.Event{Node: node, Kind: kind} }

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
