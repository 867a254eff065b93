package explore

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// twoFirst is a property judged where the run ends: the collector must
// have heard node 2 before node 3.
type twoFirst struct{ first int }

func (*twoFirst) ID() check.ID { return "two-first" }
func (p *twoFirst) Observe(e *trace.Event) string {
	if e.Kind == trace.KindRecv && e.Node == 1 && p.first == 0 {
		p.first = e.From
	}
	return ""
}
func (p *twoFirst) Finish(check.End) trace.Verdict {
	if p.first == 3 {
		return trace.Verdict{Property: "two-first", Detail: "node 3's hello came first"}
	}
	return trace.Verdict{Property: "two-first", OK: true}
}

// The fates of the two-sender collector, counted by hand. Each sender is
// not started, in flight or delivered; the collector records the order.
// While nothing has arrived either order can still come: 4 states where a
// violation is reachable. Once node 2's hello is in: 3 safe states. Once
// node 3's is in first: 3 states where it is unavoidable (the last is the
// violation itself). Every run sends exactly 2 messages.
func TestFatesOfAHandCountedSystem(t *testing.T) {
	cfg := collectors(2)
	cfg.Checks = func() []check.Property { return []check.Property{&twoFirst{}} }
	x, err := NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x.Analyze(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[Fate]int{}
	for _, fate := range f.fate {
		count[fate]++
	}
	if f.States != 10 || count[Reachable] != 4 || count[Safe] != 3 || count[Unavoidable] != 3 {
		t.Fatalf("%d states: %d reachable, %d safe, %d unavoidable; want 10: 4, 3, 3", f.States, count[Reachable], count[Safe], count[Unavoidable])
	}
	at := func(path string) *View {
		t.Helper()
		p, err := statespace.ParsePath(path, 3)
		if err != nil {
			t.Fatal(err)
		}
		v, err := x.At(p)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	fate := func(key uint64) Fate {
		t.Helper()
		fa, ok := f.Fate(key)
		if !ok {
			t.Fatalf("state %x unknown to the analysis", key)
		}
		return fa
	}
	v := at("")
	if fate(v.Key) != Reachable {
		t.Errorf("initial state: %v, want reachable", fate(v.Key))
	}
	if lo, hi, ok := f.MessagesLeft(v.Key); !ok || lo != 2 || hi != 2 {
		t.Errorf("messages left at the start: %d..%d (%v), want 2..2", lo, hi, ok)
	}
	v = at("c2,c3")
	want := map[string]Fate{"d2-1": Safe, "d3-1": Unavoidable}
	for _, s := range v.Steps {
		if got := fate(s.Next); got != want[s.Label] {
			t.Errorf("after c2,c3, step %s (%s) is %v, want %v", s.Label, s.Words, got, want[s.Label])
		}
	}
	if got := labels(v.Steps); !slices.Equal(got, []string{"d2-1", "d3-1"}) {
		t.Errorf("enabled after c2,c3: %v", got)
	}
	if v.Steps[0].Words != "deliver HELLO(From=2) from node 2 to node 1" {
		t.Errorf("words: %q", v.Steps[0].Words)
	}
	v = at("c2,c3,d3-1,d2-1")
	if !v.Terminal || v.Violation == nil || v.Violation.Property != "two-first" || v.ViolatedAt != 5 {
		t.Errorf("the violating run's end: terminal %v, violation %+v at %d", v.Terminal, v.Violation, v.ViolatedAt)
	}
	if fate(v.Key) != Unavoidable {
		t.Errorf("the violation itself is %v", fate(v.Key))
	}
	if _, err := x.At([]statespace.Trans{{Kind: statespace.Deliver, From: 2, Node: 1}}); err == nil || !strings.Contains(err.Error(), "not enabled") {
		t.Errorf("a step not enabled: %v", err)
	}
}

func labels(ss []Step) []string {
	var ls []string
	for _, s := range ss {
		ls = append(ls, s.Label)
	}
	return ls
}

// Two paths to the same state have the same key; the view of a state
// shows its nodes and its messages in flight.
func TestExplorerViewsAState(t *testing.T) {
	x, err := NewExplorer(collectors(2), func(i int) string { return []string{"", "C", "A", "B"}[i] })
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := statespace.ParsePath("c2,c3", 3)
	p2, _ := statespace.ParsePath("c3,c2", 3)
	v1, err := x.At(p1)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := x.At(p2)
	if err != nil {
		t.Fatal(err)
	}
	if v1.Key != v2.Key {
		t.Error("c2,c3 and c3,c2 reach one state but have two keys")
	}
	if len(v1.InFlight) != 2 || v1.InFlight[0].Text != "HELLO(From=2)" || v1.InFlight[0].From != 2 || v1.InFlight[0].To != 1 {
		t.Errorf("in flight: %+v", v1.InFlight)
	}
	if v1.Nodes[0].Name != "C" || !strings.Contains(v1.Nodes[0].State, "order:[]") || v1.Messages != 2 {
		t.Errorf("nodes: %+v, messages %d", v1.Nodes, v1.Messages)
	}
	v0, _ := x.At(nil)
	if got := labels(v0.Steps); !slices.Equal(got, []string{"c2", "c3"}) || v0.Steps[0].Words != "give A its command start" || v0.Steps[0].Messages != 1 {
		t.Errorf("initial steps: %v %+v", got, v0.Steps)
	}
	if v0.Nodes[1].Pending[0] != "start" {
		t.Errorf("pending: %+v", v0.Nodes[1])
	}
}

// A node's variables print without the functions of its configuration,
// which would show only as addresses.
func TestPrintStateLeavesOutFunctions(t *testing.T) {
	type cfg struct {
		N    int
		Name func(int) string
	}
	type nd struct {
		cfg   cfg
		queue []int
		held  *int
	}
	one := 1
	got := printState(&nd{cfg: cfg{N: 3, Name: func(int) string { return "" }}, queue: []int{2, 3}, held: &one})
	if want := "{cfg:{N:3} queue:[2 3] held:1}"; got != want {
		t.Errorf("printState = %q, want %q", got, want)
	}
}
