package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// runInto runs a small flood with faults and renders it in format.
func runInto(t *testing.T, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	r, err := trace.NewRenderer(format, &buf)
	if err != nil {
		t.Fatal(err)
	}
	floodInto(t, r, false, "ringlab test")
	return buf.Bytes()
}

// TestRenderFromSavedLog checks that a saved NDJSON log, read back, renders
// exactly what the live run rendered: the file carries everything.
func TestRenderFromSavedLog(t *testing.T) {
	saved := runInto(t, "json")
	for _, format := range []string{"text", "mermaid", "json"} {
		direct := runInto(t, format)
		var again bytes.Buffer
		r, _ := trace.NewRenderer(format, &again)
		err := trace.Read(bytes.NewReader(saved), func(e *trace.Event) error { return r.Event(e) }, func(s *trace.Summary) error { return r.Summary(s) })
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(direct, again.Bytes()) {
			t.Errorf("%s from the saved log differs:\n%s\nwant:\n%s", format, again.Bytes(), direct)
		}
	}
	if !strings.Contains(string(runInto(t, "text")), "DROP") {
		t.Error("the seeded run was meant to show a drop")
	}
}

func TestReadRejectsGarbage(t *testing.T) {
	for _, in := range []string{"not json\n", `{"v":2,"kind":"send"}` + "\n", `{"v":1,"kind":"send","msg":{"x":1}}` + "\n"} {
		err := trace.Read(strings.NewReader(in), func(*trace.Event) error { return nil }, func(*trace.Summary) error { return nil })
		if err == nil {
			t.Errorf("%q was accepted", in)
		}
	}
}

// TestCheckersOverSavedLog runs the mutual-exclusion checker over a saved log.
func TestCheckersOverSavedLog(t *testing.T) {
	log := `{"v":1,"seq":1,"t":0,"node":1,"kind":"enter_cs","lc":1}
{"v":1,"seq":2,"t":1,"node":2,"kind":"enter_cs","lc":1}
{"v":1,"seq":3,"t":2,"node":1,"kind":"exit_cs","lc":2}
`
	set, verdicts, _, err := check.Log(strings.NewReader(log), &check.MutualExclusion{})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Violations) != 1 || verdicts[0].OK {
		t.Fatalf("violations %v, verdicts %v", set.Violations, verdicts)
	}
}

func TestKinds(t *testing.T) {
	all := trace.KindsOf(trace.KindSend, trace.KindRecv, trace.KindDrop, trace.KindDup, trace.KindCrash,
		trace.KindRecover, trace.KindCmd, trace.KindState, trace.KindEnterCS, trace.KindExitCS,
		trace.KindLeader, trace.KindNote)
	if all != trace.AllKinds {
		t.Fatalf("every kind = %b, AllKinds = %b", all, trace.AllKinds)
	}
	k := trace.KindsOf(trace.KindLeader, trace.KindCrash)
	if !k.Has(trace.KindLeader) || !k.Has(trace.KindCrash) || k.Has(trace.KindState) || k.Has("nonsense") {
		t.Errorf("KindsOf(leader, crash) = %b", k)
	}
	// A node event's kind maps to the trace kind the runtimes give it.
	for ev, kind := range map[node.EventKind]string{node.EvState: trace.KindState, node.EvEnterCS: trace.KindEnterCS,
		node.EvExitCS: trace.KindExitCS, node.EvLeader: trace.KindLeader, node.EvNote: trace.KindNote, 99: trace.KindNote} {
		if !trace.KindsOf(kind).HasNode(ev) || (trace.AllKinds &^ trace.KindsOf(kind)).HasNode(ev) {
			t.Errorf("node event %v does not map to %q alone", ev, kind)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("KindsOf(violation) did not panic: a violation is not a runtime event")
		}
	}()
	trace.KindsOf(trace.KindViolation)
}
