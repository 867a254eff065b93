package statespace

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// collector is node 1 of the hand-counted system: it records the order in
// which the others' messages reach it. The others, on start, send it one
// message each.
type collector struct {
	index int
	order []int
}

type hello struct{ From int }

func (hello) Type() string { return "HELLO" }

func (c *collector) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InCmd && c.index != 1:
		out.Send(1, hello{c.index})
	case in.Kind == node.InMsg && c.index == 1:
		c.order = append(c.order, in.Msg.(hello).From)
	}
}

func (c *collector) Clone() node.Node {
	d := *c
	d.order = append([]int(nil), c.order...)
	return &d
}

func (c *collector) AppendKey(b []byte) []byte { return node.AppendInts(b, c.order) }

func collectors(k int) Config {
	var script []node.Action
	for i := 2; i <= k+1; i++ {
		script = append(script, node.Action{Node: i, Cmd: node.CmdStart})
	}
	return Config{
		System: engine.System{Nodes: k + 1, Factory: func(i int) (node.Node, error) { return &collector{index: i}, nil }, Script: script},
	}
}

// The search is complete on a system counted by hand: k senders, each
// not started, in flight, or delivered, and the collector's record of
// the delivery order. With d of them delivered there are C(k,d) choices
// of who, d! orders and 2^(k-d) phases for the rest: for k = 3,
// 8 + 12 + 12 + 6 = 38 states, of which the 3! = 6 delivery orders are
// terminal; for k = 4, 16 + 32 + 48 + 48 + 24 = 168. With the partial-order
// reduction on, the states are the same (no ample set applies: a sender's
// link from the collector is empty, and the checker cannot know that the
// collector never sends; sleep sets prune transitions only) and fewer
// transitions are taken.
func TestSearchCountsEveryStateOfAHandCountedSystem(t *testing.T) {
	for _, tc := range []struct {
		k, states, terminal int64
	}{{1, 3, 1}, {2, 10, 2}, {3, 38, 6}, {4, 168, 24}} {
		var trans [2]int64
		for p, por := range []bool{false, true} {
			for _, exact := range []bool{false, true} {
				cfg := collectors(int(tc.k))
				cfg.POR, cfg.Exact = por, exact
				res, err := Search(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Exhausted || res.Distinct != tc.states || res.Terminal != tc.terminal {
					t.Errorf("k=%d por=%v exact=%v: exhausted %v, %d states, %d terminal; want %d and %d",
						tc.k, por, exact, res.Exhausted, res.Distinct, res.Terminal, tc.states, tc.terminal)
				}
				trans[p] = res.Transitions
			}
		}
		if tc.k >= 2 && trans[1] >= trans[0] {
			t.Errorf("k=%d: POR took %d transitions, without %d", tc.k, trans[1], trans[0])
		}
	}
}

// Under the random policy a link is a multiset: two messages on one link
// may arrive in either order; under FIFO only in the order sent.
func TestPolicyOrdersLinks(t *testing.T) {
	twice := Config{
		System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) {
			return &sender2{collector{index: i}}, nil
		}, Script: []node.Action{{Node: 2, Cmd: node.CmdStart}}},
	}
	for _, tc := range []struct {
		policy   sim.Policy
		terminal int64
	}{{sim.PolicyFIFO, 1}, {sim.PolicyRandom, 2}} {
		twice.Policy = tc.policy
		res, err := Search(context.Background(), twice)
		if err != nil {
			t.Fatal(err)
		}
		if res.Terminal != tc.terminal {
			t.Errorf("policy %v: %d terminal states, want %d", tc.policy, res.Terminal, tc.terminal)
		}
	}
}

// sender2 sends two different messages to node 1 on start.
type sender2 struct{ collector }

func (s *sender2) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && s.index == 2 {
		out.Send(1, hello{7})
		out.Send(1, hello{8})
		return
	}
	s.collector.Step(in, out)
}

func (s *sender2) Clone() node.Node { return &sender2{*s.collector.Clone().(*collector)} }

// A path's labels parse back to the same path; bad labels are errors.
func TestParsePath(t *testing.T) {
	in := "c2,d2-1,d1-3.2,l3-1,t1:4,x2,r2"
	p, err := ParsePath(in, 3)
	if err != nil || FormatPath(p) != in {
		t.Fatalf("ParsePath(%q) = %v, %v", in, FormatPath(p), err)
	}
	for _, bad := range []string{"d1-4", "c0", "q1", "d1", "t1", "t1:x", "d1-2.0", "c01", "x"} {
		if _, err := ParsePath(bad, 3); err == nil {
			t.Errorf("ParsePath(%q) accepted", bad)
		}
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"c2,d2-1", "d1-3.2", "t1:4", "x2,r2", "l3-1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s, 5)
		if err != nil {
			return
		}
		q, err := ParsePath(FormatPath(p), 5)
		if err != nil || FormatPath(q) != FormatPath(p) {
			t.Fatalf("%q: round trip %q -> %q (%v)", s, FormatPath(p), FormatPath(q), err)
		}
	})
}

// greeter is a node of the all-to-all system: on start it greets every
// other node, and it records the order of the greetings it gets; node 1
// raises a flag (an EnterCS event) when node 3's greeting beats node 2's.
type greeter struct {
	collector
	n int
}

func (g *greeter) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		for j := 1; j <= g.n; j++ {
			if j != g.index {
				out.Send(j, hello{g.index})
			}
		}
	case node.InMsg:
		g.order = append(g.order, in.Msg.(hello).From)
		if g.index == 1 && len(g.order) == 2 && g.order[0] == 3 {
			out.EnterCS()
		}
	}
}

func (g *greeter) Clone() node.Node { return &greeter{*g.collector.Clone().(*collector), g.n} }

// flag is a property the search carries in its states: any EnterCS is a
// violation.
type flag struct{ on bool }

func (*flag) ID() check.ID                     { return "flag" }
func (f *flag) Finish(check.End) trace.Verdict { return trace.Verdict{Property: "flag", OK: !f.on} }
func (f *flag) Clone() check.Snapshot          { c := *f; return &c }
func (f *flag) AppendKey(b []byte) []byte      { return node.AppendBool(b, f.on) }
func (f *flag) Observe(e *trace.Event) string {
	if e.Kind != trace.KindEnterCS {
		return ""
	}
	f.on = true
	return "node 3 before node 2"
}

func flagged() []check.Property { return []check.Property{&flag{}} }

func greeters(n int, world bool) Config {
	cfg := Config{
		System: engine.System{Nodes: n, Factory: func(i int) (node.Node, error) { return &greeter{collector{index: i}, n}, nil }},
	}
	for i := 1; i <= n; i++ {
		cfg.Script = append(cfg.Script, node.Action{Node: i, Cmd: node.CmdStart})
	}
	if world {
		cfg.Checks = flagged
	}
	return cfg
}

// The ample sets take fewer states where a node has a message on every
// link into it, and keep what the full search finds: every terminal state
// (here each node's order of the others' greetings: (2!)^3 = 8) and a
// shortest violation of the same length (start 2 and 3, deliver 3->1,
// then 2->1: 4 steps).
func TestAmpleSetsKeepTerminalStatesAndViolations(t *testing.T) {
	var res [2]Result
	for k, por := range []bool{true, false} {
		cfg := greeters(3, false)
		cfg.POR = por
		cfg.CheckClones = true // every state decoded from the queue is the one its path builds
		var err error
		if res[k], err = Search(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		if !res[k].Exhausted || res[k].Terminal != 8 {
			t.Errorf("por=%v: exhausted %v, %d terminal states, want 8", por, res[k].Exhausted, res[k].Terminal)
		}
	}
	if res[0].Reduced == 0 || res[0].Distinct >= res[1].Distinct {
		t.Errorf("ample sets: %d states (%d reduced), full search %d", res[0].Distinct, res[0].Reduced, res[1].Distinct)
	}
	for _, por := range []bool{true, false} {
		cfg := greeters(3, true)
		cfg.POR = por
		r, err := Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation == nil || len(r.Path) != 4 {
			t.Errorf("por=%v: violation %v after %d steps (%s), want 4", por, r.Violation, len(r.Path), FormatPath(r.Path))
		}
	}
}

// twoStep is node 2 of a two-node system: its first command sends HELLO
// to node 1, its second enters the critical section. Node 1 only takes
// the greeting.
type twoStep struct {
	index, cmds int
	got         bool
}

func (n *twoStep) Step(in node.Input, out *node.Output) {
	switch {
	case in.Kind == node.InMsg:
		n.got = true
	case n.cmds == 0:
		n.cmds++
		out.Send(1, hello{n.index})
	default:
		n.cmds++
		out.EnterCS()
	}
}

func (n *twoStep) Clone() node.Node { c := *n; return &c }
func (n *twoStep) AppendKey(b []byte) []byte {
	return node.AppendBool(node.AppendInt(b, n.cmds), n.got)
}

// A state constraint (Within) cuts the states beyond it, and the
// reduction keeps what the full search finds within it. After node 2's
// greeting, node 1's delivery alone is an ample set (node 2 cannot send to
// node 1 before it), but it leads beyond the constraint "node 1 has not
// heard from node 2": taking it alone would lose node 2's entry, which
// the full search finds within the constraint.
func TestWithinKeepsWhatTheFullSearchKeeps(t *testing.T) {
	for _, por := range []bool{true, false} {
		cfg := Config{
			System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &twoStep{index: i}, nil }, Script: []node.Action{{Node: 2, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}}, Within: func(i int, nd node.Node) bool { return !nd.(*twoStep).got }},
			Checks: flagged,
			POR:    por,
		}
		r, err := Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation == nil || FormatPath(r.Path) != "c2,c2" {
			t.Errorf("por=%v: violation %v after %s; want the entry after c2,c2", por, r.Violation, FormatPath(r.Path))
		}
	}
}

// elsewhere is a workload that answers a node's event with a command for
// another node.
type elsewhere struct{}

func (elsewhere) React(i int, ev node.Event, _ int64) []node.Action {
	return []node.Action{{Node: i%2 + 1, Cmd: node.CmdRelease}}
}
func (elsewhere) Crash(int)                 {}
func (elsewhere) Restart(int)               {}
func (elsewhere) Clone() engine.Workload    { return elsewhere{} }
func (elsewhere) AppendKey(b []byte) []byte { return b }

// A workload may answer only for the node whose event it answers: a
// command for another node would make steps at two nodes dependent, which
// the reduction assumes they are not.
func TestWorkloadAnswersOnlyForItsNode(t *testing.T) {
	cfg := Config{
		System: engine.System{Nodes: 2, Factory: func(i int) (node.Node, error) { return &twoStep{index: i}, nil }, Script: []node.Action{{Node: 2, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}}, Workload: elsewhere{}},
	}
	_, err := Search(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "it may only answer for the node itself") {
		t.Fatalf("err = %v", err)
	}
}

// OnStep sees every node step of the search, each with a state of its
// own: on the hand-counted system of three senders, the 3 starts and the
// collector's 3 + 3·2 + 6·1 = 15 deliveries (from each order of d senders
// delivered, one of the 3-d others), though stepping the states it is
// given changes nothing the search finds.
func TestOnStepSeesEveryStepWithAStateOfItsOwn(t *testing.T) {
	cfg := collectors(3)
	calls := 0
	pairs := map[string]bool{}
	cfg.OnStep = func(i int, before node.Node, in node.Input) {
		calls++
		pairs[fmt.Sprintf("%d %x %d %d %v", i, before.(node.Snapshot).AppendKey(nil), in.Kind, in.From, in.Msg)] = true
		before.Step(in, &node.Output{})
	}
	res, err := Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 18 || int64(calls) < res.Transitions || res.Distinct != 38 {
		t.Errorf("%d distinct steps in %d calls, %d transitions, %d states; want 18, at least as many calls as transitions, 38 states",
			len(pairs), calls, res.Transitions, res.Distinct)
	}
}
