package statespace_test

import (
	"context"
	"testing"

	"ringlab/engine"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// entries is a goal's monitor: it counts the entries into the critical
// section, up to 2.
type entries struct{ n uint8 }

func (e *entries) Observe(ev *trace.Event) {
	if ev.Kind == trace.KindEnterCS && e.n < 2 {
		e.n++
	}
}
func (e *entries) Wants() trace.Kinds           { return trace.KindsOf(trace.KindEnterCS) }
func (e *entries) Clone() engine.Monitor        { c := *e; return &c }
func (e *entries) AppendKey(b []byte) []byte    { return append(b, e.n) }
func twoEntries(s engine.GlobalState) bool      { m, ok := s.Monitor.(*entries); return ok && m.n >= 2 }
func nothingInFlight(s engine.GlobalState) bool { return len(s.InFlight) == 0 }

// A goal over history: "two entries so far, and nothing in flight". No
// node keeps the count (the server forgets whom it served, a client that
// left forgets it was in), so no predicate over nodes and messages alone
// can say it; the monitor counts the entries and is part of the searched
// state. The search finds a shortest witness (8 steps: each client
// served once), which replays to two entries; no shorter path reaches
// the goal; and the same predicate without the monitor never holds.
func TestGoalMonitorReadsHistory(t *testing.T) {
	cfg := locks(3, 0, "fifo")
	cfg.Liveness = false
	cfg.Goal = &engine.Goal{Name: "two-entries", Monitor: func() engine.Monitor { return &entries{} },
		Holds: func(s engine.GlobalState) bool { return twoEntries(s) && nothingInFlight(s) }}
	res, err := statespace.Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Goal {
		t.Fatalf("goal not reached: %+v", res)
	}
	n := 0
	_, err = statespace.Replay(cfg, res.Path, func(e *trace.Event) {
		if e.Kind == trace.KindEnterCS {
			n++
		}
	})
	if err != nil || n != 2 {
		t.Fatalf("%s: %d entries (%v), want 2", statespace.FormatPath(res.Path), n, err)
	}
	t.Logf("witness %s, %d distinct states", statespace.FormatPath(res.Path), res.Distinct)
	short := cfg
	short.MaxDepth = len(res.Path) - 1
	if r, err := statespace.Search(context.Background(), short); err != nil || r.Goal {
		t.Errorf("within %d steps: goal %v (%v), want not reached", short.MaxDepth, r.Goal, err)
	}
	blind := cfg
	blind.Goal = &engine.Goal{Name: "blind", Holds: func(s engine.GlobalState) bool { return twoEntries(s) }}
	if r, err := statespace.Search(context.Background(), blind); err != nil || r.Goal || !r.Exhausted {
		t.Errorf("without a monitor: goal %v, exhausted %v (%v), want never reached", r.Goal, r.Exhausted, err)
	}
}
