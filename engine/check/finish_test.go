package check

import (
	"testing"

	"ringlab/engine/trace"
)

// atEnd is a property judged only where a run ends that fails there, and
// reports a violation at a crash.
type atEnd struct{ id ID }

func (a atEnd) ID() ID { return a.id }
func (a atEnd) Observe(e *trace.Event) string {
	if e.Kind == trace.KindCrash {
		return "a crash"
	}
	return ""
}
func (a atEnd) Finish(End) trace.Verdict {
	return trace.Verdict{Property: string(a.id), Detail: "fails where the run ends"}
}

// The verdicts of a state a path reaches: what is judged at every state
// (a Snapshot) as far as the path goes, what is judged only where a run
// ends not reached unless an event broke it, and on a lasso the property
// its cycle refutes, in the lasso's words.
func TestFinishJudgesTheStateAPathReaches(t *testing.T) {
	s := NewSet(&MutualExclusion{}, atEnd{"at end"}, atEnd{"broken"}, atEnd{"refuted"}, Termination{})
	s.Observe(ev(1, trace.KindEnterCS))
	s.Observe(ev(2, trace.KindCrash)) // breaks "broken", "at end" and "refuted" alike
	s2 := NewSet(&MutualExclusion{}, atEnd{"at end"}, atEnd{"refuted"}, Termination{})
	s2.Observe(ev(1, trace.KindEnterCS))

	cut := End{Cut: true, Why: "the path ends before the run does"}
	want := []trace.Verdict{
		{Property: "mutual exclusion", OK: true, Detail: "never two nodes inside at once, in the order the events happened"},
		{Property: "at end", NotReached: true, Detail: cut.Why},
		{Property: "refuted", Detail: "the cycle starves P3"},
		{Property: "termination", NotReached: true, Detail: cut.Why},
	}
	cut.Refutes, cut.Refuted = "refuted", "the cycle starves P3"
	for k, v := range s2.Finish(cut) {
		if v != want[k] {
			t.Errorf("verdict %d: %+v, want %+v", k, v, want[k])
		}
	}
	// a violation at an event is one wherever the path stops, in the
	// words of the event
	for _, v := range s.Finish(End{Cut: true, Why: "cut"}) {
		if v.Property == "broken" && (v.OK || v.NotReached || v.Detail != "a crash") {
			t.Errorf("a violation at an event: %+v", v)
		}
	}
	// where the run ends, every property is judged
	for _, v := range s2.Finish(End{Terminated: true}) {
		if v.NotReached || v.Property == "at end" && v.OK {
			t.Errorf("at the end: %+v", v)
		}
	}
}
