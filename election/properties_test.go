package election

import (
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

func ev(node int, kind string) *trace.Event { return &trace.Event{Node: node, Kind: kind} }

func leader(node, id int) *trace.Event {
	return &trace.Event{Node: node, Kind: trace.KindLeader, Leader: &id}
}

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
	if v := u.Finish(check.End{}); v.OK {
		t.Fatalf("a split-brain that healed still broke uniqueness: %+v", v)
	}

	u = NewUniqueness(ids)
	u.Observe(leader(2, 20))
	u.Observe(ev(2, trace.KindCrash)) // a dead leader does not count
	if d := u.Observe(leader(3, 30)); d != "" {
		t.Fatalf("crashed node counted: %s", d)
	}
	if v := u.Finish(check.End{}); !v.OK {
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
	if v := a.Finish(check.End{}); !v.OK {
		t.Fatalf("agreement: %+v", v)
	}
	if v := c.Finish(check.End{}); !v.OK {
		t.Fatalf("correctness: %+v", v)
	}
	a.Observe(ev(3, trace.KindRecover)) // amnesia: node 3 knows no leader now
	if v := a.Finish(check.End{}); v.OK {
		t.Fatal("a recovered node without a leader passed agreement")
	}
	c2 := NewCorrectness(ids, 3, "the smallest id")
	c2.Observe(leader(1, 7))
	if v := c2.Finish(check.End{}); v.OK {
		t.Fatal("wrong leader passed correctness")
	}
}
