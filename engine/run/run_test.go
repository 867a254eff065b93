package run

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// script is a runtime that reports fixed events and ends as told: the
// judging, not the stepping, is under test here.
type script struct {
	events []trace.Event
	end    engine.End
}

func (script) Name() string { return "sim" }

func (s script) Run(_ context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	res := engine.Result{End: s.end, ByType: map[string]int64{}}
	for i := range s.events {
		e := s.events[i]
		res.Now, res.Steps = e.T, res.Steps+1
		obs(&e)
	}
	return res, nil
}

func cs(t int64, node int, kind string) trace.Event {
	return trace.Event{V: trace.Version, T: t, Node: node, Kind: kind}
}

// deadlockish is a liveness property that fails at the end of every run,
// its promise to node 3 (that it enters) owed from the start.
type deadlockish struct{}

func (deadlockish) ID() check.ID                { return "no deadlock" }
func (deadlockish) Observe(*trace.Event) string { return "" }
func (deadlockish) Promise() check.Promise      { return entered(3) }
func (deadlockish) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: "no deadlock", Detail: "node 3 still waiting"}
}

// disagreeish is a liveness property whose promise to node 1 (that it
// enters) is kept, and whose verdict fails at the end of every run for
// what it also judges there.
type disagreeish struct{}

func (disagreeish) ID() check.ID                { return "agreement" }
func (disagreeish) Observe(*trace.Event) string { return "" }
func (disagreeish) Promise() check.Promise      { return entered(1) }
func (disagreeish) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: "agreement", Detail: "node 1 and node 2 disagree"}
}

// entered is the promise, owed from the start, that node i enters the
// critical section.
func entered(i int) check.Promise {
	return &check.Owed{Start: 1 << (i - 1), Kinds: trace.KindsOf(trace.KindEnterCS),
		Ask:    func(*trace.Event) bool { return false },
		Answer: func(e *trace.Event) bool { return e.Kind == trace.KindEnterCS && e.Node == i }}
}

func TestOutcomeErr(t *testing.T) {
	overlap := []trace.Event{cs(1, 1, trace.KindEnterCS), cs(2, 2, trace.KindEnterCS), cs(3, 1, trace.KindExitCS)}
	apart := []trace.Event{cs(1, 1, trace.KindEnterCS), cs(2, 1, trace.KindExitCS), cs(3, 2, trace.KindEnterCS)}
	for _, tc := range []struct {
		name   string
		rt     script
		props  []check.Property
		want   string // the error's text starts with this ("": nil)
		typeOf any
	}{
		{"held", script{apart, engine.Quiescent}, nil, "", nil},
		{"safety at an event", script{overlap, engine.Quiescent}, nil, "mutual exclusion violated: node 1 and node 2 are in",
			&Violation{}},
		{"safety beats no termination", script{overlap, engine.Exhausted}, nil, "mutual exclusion violated", &Violation{}},
		{"no termination", script{apart, engine.Exhausted}, nil, "no termination: exhausted", &NoTermination{}},
		{"a promise owed is no progress", script{apart, engine.Quiescent}, []check.Property{deadlockish{}},
			"no progress: no deadlock violated: node 3 still waiting", &Violation{}},
		{"a liveness property with its promises kept is violated", script{apart, engine.Quiescent}, []check.Property{disagreeish{}},
			"agreement violated: node 1 and node 2 disagree", &Violation{}},
		{"interrupted", script{overlap, engine.Interrupted}, nil, "context canceled", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := append([]check.Property{&check.MutualExclusion{}, check.Termination{}}, tc.props...)
			sys := engine.System{Name: "test", Nodes: 2, Properties: props}
			out, err := Run(context.Background(), sys, tc.rt, Options{Replay: "ringlab test"})
			if err != nil {
				t.Fatal(err)
			}
			got := out.Err()
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("Err = %v, want nil", got)
			case tc.want != "" && (got == nil || !strings.HasPrefix(got.Error(), tc.want)):
				t.Fatalf("Err = %v, want %q...", got, tc.want)
			}
			switch w := tc.typeOf.(type) {
			case *Violation:
				if !errors.As(got, &w) {
					t.Fatalf("Err is %T, want *Violation", got)
				}
			case *NoTermination:
				if !errors.As(got, &w) {
					t.Fatalf("Err is %T, want *NoTermination", got)
				}
			}
			if tc.name == "interrupted" && !errors.Is(got, context.Canceled) {
				t.Fatalf("Err = %v, want context.Canceled", got)
			}
		})
	}
}

// TestRunRenders checks that the renderers get the header, every event
// numbered, the violation right after the event that caused it, and the
// summary with its verdicts.
func TestRunRenders(t *testing.T) {
	var buf bytes.Buffer
	r, err := trace.NewRenderer("json", &buf)
	if err != nil {
		t.Fatal(err)
	}
	sys := engine.System{Name: "test", Nodes: 2, Properties: []check.Property{&check.MutualExclusion{}}}
	rt := script{[]trace.Event{cs(1, 1, trace.KindEnterCS), cs(2, 2, trace.KindEnterCS)}, engine.Quiescent}
	h := trace.NewHeader(sys.Name, rt.Name(), sys.Nodes, 7, nil, "", nil, "ringlab test")
	out, err := Run(context.Background(), sys, rt, Options{Renderers: []trace.Renderer{r}, Header: h, Seed: 7, Replay: "ringlab test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want header, 2 events, a violation and the summary:\n%s", len(lines), buf.String())
	}
	for k, want := range []string{`"kind":"header"`, `"seq":1`, `"seq":2`, `"kind":"violation"`, `"kind":"summary"`} {
		if !strings.Contains(lines[k], want) {
			t.Errorf("line %d = %s, want %s in it", k+1, lines[k], want)
		}
	}
	if out.Summary.Seed != 7 || out.Summary.Steps != 2 || len(out.Summary.Verdicts) != 1 || out.Summary.Verdicts[0].OK {
		t.Errorf("summary = %+v", out.Summary)
	}
}

func TestOnlyUnknownProperty(t *testing.T) {
	sys := engine.System{Name: "test", Nodes: 2, Properties: []check.Property{&check.MutualExclusion{}}}
	_, err := Run(context.Background(), sys, script{end: engine.Quiescent}, Options{Only: []string{"mutual-exclusoin"}})
	if err == nil || !strings.Contains(err.Error(), "mutual-exclusion") {
		t.Fatalf("err = %v, want one that lists mutual-exclusion", err)
	}
}
