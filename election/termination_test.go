package election

import (
	"strings"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Termination is the chapter's: the run ends with some live process
// taking itself as leader, not merely quiet.
func TestTerminationAsksForALiveLeader(t *testing.T) {
	ids := []int{5, 3, 7}
	ended := check.End{Terminated: true}
	for _, c := range []struct {
		name   string
		events []*trace.Event
		ok     bool
	}{
		{"nobody decided", nil, false},
		{"a follower only", []*trace.Event{leader(1, 3)}, false},
		{"the leader knows", []*trace.Event{leader(1, 3), leader(2, 3)}, true},
		{"the leader crashed", []*trace.Event{leader(2, 3), ev(2, trace.KindCrash)}, false},
		{"it came back with amnesia", []*trace.Event{leader(2, 3), ev(2, trace.KindCrash), ev(2, trace.KindRecover)}, false},
		{"every process crashed", []*trace.Event{ev(1, trace.KindCrash), ev(2, trace.KindCrash), ev(3, trace.KindCrash)}, true},
	} {
		p := NewTermination(3, ids)
		for _, e := range c.events {
			p.Observe(e)
		}
		if v := p.Finish(ended); v.OK != c.ok || v.Property != string(check.IDTermination) {
			t.Errorf("%s: %+v, want ok %v", c.name, v, c.ok)
		}
	}
	// A run cut short did not terminate, whoever leads.
	p := NewTermination(3, ids)
	p.Observe(leader(2, 3))
	if v := p.Finish(check.End{Why: "still running"}); v.OK || v.Detail != "still running" {
		t.Errorf("a run cut short: %+v", v)
	}
	// In the id-list ring a decider is enough: the leader may not know.
	d := NewDecidedTermination(3, ids)
	if v := d.Finish(ended); v.OK {
		t.Errorf("id-list ring, nobody decided: %+v", v)
	}
	d.Observe(leader(1, 3))
	if v := d.Finish(ended); !v.OK {
		t.Errorf("id-list ring, an initiator decided: %+v", v)
	}
	d.Observe(ev(1, trace.KindCrash))
	if v := d.Finish(ended); v.OK {
		t.Errorf("id-list ring, the only decider crashed: %+v", v)
	}
}

// A lost message or a crashed initiator leaves the ring without a
// leader: a run says termination is violated, and the exhaustive check
// finds the shortest such run and replays it.
func TestTerminationWithoutALeaderIsAViolation(t *testing.T) {
	runCLI(t, "ring", "--drop", "1", "--seed", "1").want(t, 3,
		"✗ termination: the run ended and no live process considers itself leader")
	runCLI(t, "check", "ring", "--nodes", "3", "--crashes", "1", "--property", "termination").want(t, 3,
		"result: VIOLATION of termination after 1 steps", "path: x1")
	runCLI(t, "check", "ring", "--nodes", "3", "--crashes", "1", "--path", "x1").want(t, 3,
		"✗ Termination not reached: the run ended and no live process considers itself leader")
	// Chang-Roberts: the largest id crashes before its own message is back.
	checkReplays(t, 4, "check", "chang-roberts", "--nodes", "3", "--crashes", "1", "--property", "termination")
}

// The ring's own verdict lines on a checker's path that stops before the
// run ends: no leader yet, and termination not reached, rather than ✗.
func TestRingTextOnAPathCutShort(t *testing.T) {
	r := runCLI(t, "check", "ring", "--nodes", "3", "--path", "c1,d1-2")
	r.want(t, 4, "\n– No leader elected\n– termination: not reached (the path ends before the run does)\n")
	if strings.Contains(r.out, "✗") {
		t.Errorf("a ✗ on a path cut short:\n%s", r.out)
	}
}
