package statespace_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// Give, Grant and Free are the messages of a one-server lock.
type (
	Give  struct{}
	Grant struct{}
	Free  struct{}
)

// Type names the message kind.
func (Give) Type() string { return "GIVE" }

// Type names the message kind.
func (Grant) Type() string { return "GRANT" }

// Type names the message kind.
func (Free) Type() string { return "FREE" }

// server is a lock: node 1 grants it to clients 2..n, one at a time, in
// the order their requests arrived, or with favour > 0 to a queued client
// of index <= favour first (a bias that starves the others).
type server struct {
	i, favour int
	queue     []int
	busy      bool
}

func (s *server) Step(in node.Input, out *node.Output) {
	switch {
	case s.i != 1 && in.Kind == node.InCmd && in.Cmd == node.CmdRequest:
		out.Send(1, Give{})
	case s.i != 1 && in.Kind == node.InMsg:
		out.EnterCS()
	case s.i != 1 && in.Kind == node.InCmd && in.Cmd == node.CmdRelease:
		out.ExitCS()
		out.Send(1, Free{})
	case s.i == 1 && in.Kind == node.InMsg && in.Msg.Type() == "GIVE":
		s.queue = append(s.queue, in.From)
	case s.i == 1 && in.Kind == node.InMsg && in.Msg.Type() == "FREE":
		s.busy = false
	}
	if s.i == 1 && !s.busy && len(s.queue) > 0 {
		k := slices.IndexFunc(s.queue, func(c int) bool { return c <= s.favour })
		k = max(k, 0)
		out.Send(s.queue[k], Grant{})
		s.queue = slices.Delete(slices.Clone(s.queue), k, k+1)
		s.busy = true
	}
}

func (s *server) Clone() node.Node {
	c := *s
	c.queue = slices.Clone(s.queue)
	return &c
}

func (s *server) AppendKey(b []byte) []byte {
	return node.AppendInts(node.AppendBool(b, s.busy), s.queue)
}

// again is the workload of clients that ask for ever: release after
// every entry, ask again after every exit.
type again struct{}

func (again) React(i int, ev node.Event, _ int64) []node.Action {
	switch ev.Kind {
	case node.EvEnterCS:
		return []node.Action{{Node: i, Cmd: node.CmdRelease}}
	case node.EvExitCS:
		return []node.Action{{Node: i, Cmd: node.CmdRequest}}
	}
	return nil
}
func (again) Crash(int)                 {}
func (again) Restart(int)               {}
func (again) Clone() engine.Workload    { return again{} }
func (again) AppendKey(b []byte) []byte { return b }

// served is "every request is eventually granted", written once: judged
// where a run ends (Finish) and, through its Promise, over cycles.
type served struct{ waiting check.NodeSet }

func (*served) ID() check.ID { return "served" }
func (s *served) Observe(e *trace.Event) string {
	switch {
	case e.Kind == trace.KindCmd && e.Cmd == string(node.CmdRequest):
		s.waiting.Add(e.Node)
	case e.Kind == trace.KindEnterCS:
		s.waiting.Remove(e.Node)
	}
	return ""
}
func (s *served) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: "served", OK: len(s.waiting) == 0}
}
func (*served) Promise() check.Promise {
	return &check.Owed{
		Ask:    func(e *trace.Event) bool { return e.Kind == trace.KindCmd && e.Cmd == string(node.CmdRequest) },
		Answer: func(e *trace.Event) bool { return e.Kind == trace.KindEnterCS },
		Kinds:  trace.KindsOf(trace.KindCmd, trace.KindEnterCS),
	}
}

// locks is the server with n-1 clients that all ask for ever.
func locks(n, favour int, policy string) statespace.Config {
	cfg := statespace.Config{
		System:   engine.System{Nodes: n, Factory: func(i int) (node.Node, error) { return &server{i: i, favour: favour}, nil }, Workload: again{}},
		Checks:   func() []check.Property { return []check.Property{&served{}} },
		Liveness: true,
	}
	for i := 2; i <= n; i++ {
		cfg.Script = append(cfg.Script, node.Action{Node: i, Cmd: node.CmdRequest})
	}
	if policy == "random" {
		cfg.Policy = sim.PolicyRandom
	}
	return cfg
}

// A first-come-first-served server starves nobody, under weak fairness:
// the graph has cycles on which a client stays owed (its request never
// delivered while the others take turns), and fairness rules every one
// of them out, so candidates are found and no lasso.
func TestLivenessFairServerStarvesNobody(t *testing.T) {
	for _, n := range []int{3, 4} {
		res, err := statespace.Search(context.Background(), locks(n, 0, "fifo"))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exhausted || res.Violation != nil || res.Lasso != nil {
			t.Fatalf("n=%d: %+v, lasso %v", n, res, res.Lasso)
		}
		if res.Live.Candidates == 0 || res.Live.Promises != n-1 || res.Live.Edges != res.Transitions || res.Live.SCCs == 0 {
			t.Errorf("n=%d: liveness figures %+v (transitions %d): an unfair cycle that owes a client should be a candidate", n, res.Live, res.Transitions)
		}
	}
}

// A server that favours clients 2 and 3 starves client 4: the lasso's
// cycle keeps 4 owed in every state, is fair, and replays back to the
// state it began in.
func TestLivenessBiasedServerStarvesALasso(t *testing.T) {
	cfg := locks(4, 3, "fifo")
	res, err := statespace.Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := res.Lasso
	if l == nil || l.Property != "served" || l.Node != 4 || len(l.Cycle) == 0 {
		t.Fatalf("want a lasso starving node 4, got %+v (%+v)", l, res)
	}
	var events []trace.Event
	if _, err := statespace.ReplayLasso(cfg, l.Prefix, l.Cycle, func(e *trace.Event) { events = append(events, *e) }); err != nil {
		t.Fatalf("the lasso %s does not replay: %v", l, err)
	}
	mark := slices.IndexFunc(events, func(e trace.Event) bool { return e.Kind == trace.KindNote && e.Note == statespace.CycleNote })
	if mark < 0 {
		t.Fatalf("no cycle marker in the replay of %s", l)
	}
	owed := false
	for _, e := range events[:mark] {
		if e.Node == 4 && e.Kind == trace.KindCmd {
			owed = true
		}
	}
	for _, e := range events[mark:] {
		if e.Node == 4 && (e.Kind == trace.KindEnterCS || e.Kind == trace.KindRecv) {
			t.Errorf("node 4 is served on the cycle: %+v", e)
		}
	}
	if !owed {
		t.Errorf("node 4 never asked in the prefix %s", statespace.FormatPath(l.Prefix))
	}
	// Fair: each of nodes 2 and 3 is granted on the cycle (they take turns).
	for _, c := range []int{2, 3} {
		if !slices.ContainsFunc(events[mark:], func(e trace.Event) bool { return e.Node == c && e.Kind == trace.KindEnterCS }) {
			t.Errorf("node %d never enters on the cycle %s", c, statespace.FormatPath(l.Cycle))
		}
	}
	// The text round trip, and a broken cycle is refused.
	p, c, err := statespace.ParseLasso(l.String(), 4)
	if err != nil || statespace.FormatLasso(p, c) != l.String() {
		t.Errorf("ParseLasso(%q) = %v|%v, %v", l, p, c, err)
	}
	if _, err := statespace.ReplayLasso(cfg, l.Prefix, l.Cycle[:len(l.Cycle)-1], nil); err == nil || !strings.Contains(err.Error(), "does not come back") && !strings.Contains(err.Error(), "not enabled") {
		t.Errorf("a cycle cut short replays: %v", err)
	}
}

// Without Config.Liveness the same search keeps no graph and judges no
// cycle: the promises are not even carried in the states.
func TestLivenessOffKeepsNothing(t *testing.T) {
	cfg := locks(4, 3, "fifo")
	cfg.Liveness = false
	res, err := statespace.Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Lasso != nil || res.Live.Edges != 0 || res.Live.SCCs != 0 || len(res.Live.Bypass) != 0 || !res.Exhausted {
		t.Errorf("%+v", res)
	}
	on := locks(4, 3, "fifo")
	on.POR = false
	cfg.POR = false
	a, _ := statespace.Search(context.Background(), cfg)
	b, _ := statespace.Search(context.Background(), on)
	if a.Distinct != b.Distinct || a.Transitions != b.Transitions {
		t.Errorf("the promise's state changed the space: %d/%d states without, %d/%d with", a.Distinct, a.Transitions, b.Distinct, b.Transitions)
	}
}

func TestParseLasso(t *testing.T) {
	for _, tc := range []struct {
		in            string
		prefix, cycle int
		bad           bool
	}{
		{"c1,d1-2", 2, 0, false},
		{"c1|d1-2,d2-1", 1, 2, false},
		{"|d1-2", 0, 1, false},
		{"c1|", 1, 0, false}, // a stutter
		{"c1|d1-2|d2-1", 0, 0, true},
		{"c1|d1-9", 0, 0, true},
	} {
		p, c, err := statespace.ParseLasso(tc.in, 2)
		if (err != nil) != tc.bad || !tc.bad && (len(p) != tc.prefix || len(c) != tc.cycle) {
			t.Errorf("ParseLasso(%q) = %v, %v, %v", tc.in, p, c, err)
		}
	}
}

// FuzzParseLasso: any text either fails with an error or reads back to
// a lasso whose printed form reads the same again.
func FuzzParseLasso(f *testing.F) {
	for _, s := range []string{"c1|d1-2", "c2,d2-1.1|t1:3,l1-2", "|", "x1|r1", "||"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, c, err := statespace.ParseLasso(s, 3)
		if err != nil {
			return
		}
		out := statespace.FormatPath(p)
		if c != nil {
			out = statespace.FormatLasso(p, c)
		}
		p2, c2, err := statespace.ParseLasso(out, 3)
		if err != nil || statespace.FormatPath(p2) != statespace.FormatPath(p) || statespace.FormatPath(c2) != statespace.FormatPath(c) {
			t.Fatalf("%q read as %q, which reads back as %v|%v (%v)", s, out, p2, c2, err)
		}
	})
}

// A search with Cycles, with the reduction or without, finds the cycles
// of the server whose clients ask for ever, without --liveness's graph.
func TestCyclesFoundWithTheReductionOrWithout(t *testing.T) {
	var cyclic [2]int64
	for k, por := range []bool{true, false} {
		cfg := locks(3, 0, "fifo")
		cfg.Liveness, cfg.POR, cfg.Cycles = false, por, true
		res, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if cyclic[k] = res.Cyclic; !res.Exhausted || res.Cyclic == 0 || res.Live.Edges != 0 {
			t.Errorf("por=%v: exhausted %v, %d cyclic components, %d edges kept for liveness: want cycles and no liveness graph", por, res.Exhausted, res.Cyclic, res.Live.Edges)
		}
	}
	t.Logf("cyclic components: %d with the reduction, %d without", cyclic[0], cyclic[1])
}
