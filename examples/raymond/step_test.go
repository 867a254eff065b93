package raymond_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"example.com/ringlab-examples/raymond"
	"ringlab/engine/node"
)

// net is a hand-cranked network of raymond nodes: Step is driven
// directly, messages wait in one list, and deliver picks which arrives
// next. It counts the messages sent and checks, after every step, that
// one token exists and at most one node is in the critical section.
type net struct {
	t      *testing.T
	nodes  []*raymond.Node // by index; 0 unused
	flight []node.Send     // in flight, with the sender in from
	from   []int
	sent   map[string]int
	enters []int // the nodes that entered, in order
}

func newNet(t *testing.T, tree raymond.Tree) *net { return newNetOf(t, raymond.Config{Tree: tree}) }

func newNetOf(t *testing.T, c raymond.Config) *net {
	if err := c.Tree.Validate(); err != nil {
		t.Fatal(err)
	}
	nw := &net{t: t, nodes: make([]*raymond.Node, len(c.Tree)+1), sent: map[string]int{}}
	for i := 1; i <= len(c.Tree); i++ {
		nw.nodes[i] = raymond.New(c, i)
	}
	return nw
}

// step gives node i one input and posts what it sends.
func (nw *net) step(i int, in node.Input) {
	var out node.Output
	nw.nodes[i].Step(in, &out)
	for _, s := range out.Sends {
		nw.flight, nw.from = append(nw.flight, s), append(nw.from, i)
		nw.sent[s.Msg.Type()]++
	}
	for _, e := range out.Events {
		if e.Kind == node.EvEnterCS {
			nw.enters = append(nw.enters, i)
		}
	}
	nw.invariants()
}

func (nw *net) cmd(i int, c node.Cmd) { nw.step(i, node.Input{Kind: node.InCmd, Cmd: c}) }

// deliver delivers the k-th message in flight.
func (nw *net) deliver(k int) {
	s, from := nw.flight[k], nw.from[k]
	nw.flight, nw.from = slices.Delete(nw.flight, k, k+1), slices.Delete(nw.from, k, k+1)
	nw.step(s.To, node.Input{Kind: node.InMsg, From: from, Msg: s.Msg})
}

// settle delivers every message, oldest first (rng nil) or in an order
// rng picks, and releases the critical section whenever a node is in it.
func (nw *net) settle(rng *rand.Rand) {
	for {
		for i := 1; i < len(nw.nodes); i++ {
			if nw.nodes[i].Using {
				nw.cmd(i, node.CmdRelease)
			}
		}
		if len(nw.flight) == 0 {
			return
		}
		k := 0
		if rng != nil {
			k = rng.IntN(len(nw.flight))
		}
		nw.deliver(k)
	}
}

func (nw *net) messages() int { return nw.sent["REQUEST"] + nw.sent["PRIVILEGE"] }

// invariants: exactly one token (a node holding it or a PRIVILEGE in
// flight), and at most one node using it.
func (nw *net) invariants() {
	nw.t.Helper()
	tokens, using := 0, 0
	for i := 1; i < len(nw.nodes); i++ {
		if nw.nodes[i].Holder == i {
			tokens++
		}
		if nw.nodes[i].Using {
			using++
		}
	}
	for _, s := range nw.flight {
		if s.Msg.Type() == "PRIVILEGE" {
			tokens++
		}
	}
	if tokens != 1 || using > 1 {
		nw.t.Fatalf("%d tokens, %d nodes in the critical section: %+v", tokens, using, nw.nodes[1:])
	}
}

// A lone request costs 2·d messages, d the distance from the token to the
// requester: d REQUESTs up the Holder pointers, d PRIVILEGEs down. The
// worst over every holder and requester is 2·D, D the tree's diameter
// (the README's table).
func TestLoneRequestCostsTwiceTheDistance(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tree  raymond.Tree
		worst int // 2·D, the theory
	}{
		{"line of 3", raymond.Line(3), 4},
		{"line of 5", raymond.Line(5), 8},
		{"star of 5", raymond.Star(5), 4},
		{"balanced binary of 7", raymond.Binary(7), 8},
	} {
		if got := 2 * tc.tree.Diameter(); got != tc.worst {
			t.Fatalf("%s: diameter %d, want %d", tc.name, got/2, tc.worst/2)
		}
		worst := 0
		for h := 1; h <= len(tc.tree); h++ {
			for r := 1; r <= len(tc.tree); r++ {
				nw := newNet(t, tc.tree)
				nw.cmd(h, node.CmdRequest) // move the token to h first
				nw.settle(nil)
				before := nw.messages()
				nw.cmd(r, node.CmdRequest)
				nw.settle(nil)
				got := nw.messages() - before
				if want := 2 * tc.tree.Distance(tc.tree.Root(), h); before != want {
					t.Fatalf("%s: moving the token to %d cost %d messages, want %d", tc.name, h, before, want)
				}
				if want := 2 * tc.tree.Distance(h, r); got != want {
					t.Fatalf("%s: token at %d, request of %d: %d messages, want 2·%d", tc.name, h, r, got, want/2)
				}
				if nw.enters[len(nw.enters)-1] != r || nw.sent["REQUEST"] != nw.sent["PRIVILEGE"] {
					t.Fatalf("%s: token at %d, request of %d: entries %v, sent %v", tc.name, h, r, nw.enters, nw.sent)
				}
				worst = max(worst, got)
			}
		}
		if worst != tc.worst {
			t.Fatalf("%s: the worst lone request cost %d messages, theory 2·D = %d", tc.name, worst, tc.worst)
		}
		t.Logf("%s: worst lone request %d messages, theory 2·D = %d", tc.name, worst, tc.worst)
	}
}

// Every node asks at once, in many delivery orders: every request is
// granted exactly once, one token and one user at a time throughout, and
// the load makes an entry cheaper than a lone one: never more than 2·D.
func TestEveryoneAsksInAnyOrder(t *testing.T) {
	for _, tree := range []raymond.Tree{raymond.Line(3), raymond.Star(5), raymond.Binary(7), raymond.Line(6)} {
		for seed := range uint64(200) {
			nw := newNet(t, tree)
			rng := rand.New(rand.NewPCG(seed, 1))
			for _, i := range rng.Perm(len(tree)) {
				nw.cmd(i+1, node.CmdRequest)
			}
			nw.settle(rng)
			got := slices.Sorted(slices.Values(nw.enters))
			if want := []int{1, 2, 3, 4, 5, 6, 7}[:len(tree)]; !slices.Equal(got, want) {
				t.Fatalf("tree %v, seed %d: entries %v, want each node once", tree, seed, nw.enters)
			}
			if perEntry := float64(nw.messages()) / float64(len(tree)); perEntry > float64(2*tree.Diameter()) {
				t.Fatalf("tree %v, seed %d: %.1f messages per entry, above 2·D", tree, seed, perEntry)
			}
		}
	}
}

// The rules one input at a time, on the line 1 - 2 - 3 with the token at 1.
func TestRules(t *testing.T) {
	nw := newNet(t, raymond.Line(3))
	// Node 2 asks on behalf of 3, once; a second request (its own) is
	// queued behind without a second REQUEST.
	nw.step(2, node.Input{Kind: node.InMsg, From: 3, Msg: raymond.Request{}})
	nw.cmd(2, node.CmdRequest)
	if n := nw.nodes[2]; !n.Asked || !slices.Equal(n.Queue, []int{3, 2}) || nw.sent["REQUEST"] != 1 || nw.flight[0].To != 1 {
		t.Fatalf("node 2 after two requests: %+v, in flight %v", n, nw.flight)
	}
	// The holder, idle, gives the token away at once and points to 2.
	nw.deliver(0)
	if n := nw.nodes[1]; n.Holder != 2 || len(n.Queue) != 0 || nw.flight[0].Msg != (raymond.Privilege{}) {
		t.Fatalf("node 1 after the REQUEST: %+v, in flight %v", n, nw.flight)
	}
	// Node 2 passes it on to the oldest request, 3, and asks 3 for it
	// back at once for its own request.
	nw.deliver(0)
	if n := nw.nodes[2]; n.Holder != 3 || !n.Asked || !slices.Equal(n.Queue, []int{2}) || len(nw.flight) != 2 ||
		nw.flight[0].Msg != (raymond.Privilege{}) || nw.flight[1].Msg != (raymond.Request{}) || nw.flight[1].To != 3 {
		t.Fatalf("node 2 after the PRIVILEGE: %+v, in flight %v", n, nw.flight)
	}
	// Node 3 has not asked: it keeps the token until the REQUEST behind
	// it arrives, then sends it straight back.
	nw.deliver(0)
	if n := nw.nodes[3]; n.Holder != 3 || n.Using || len(n.Queue) != 0 || len(nw.flight) != 1 {
		t.Fatalf("node 3 with the token: %+v, in flight %v", n, nw.flight)
	}
	nw.deliver(0)
	if n := nw.nodes[3]; n.Holder != 2 || len(n.Queue) != 0 || len(nw.flight) != 1 {
		t.Fatalf("node 3 after the REQUEST: %+v, in flight %v", n, nw.flight)
	}
	nw.deliver(0)
	if n := nw.nodes[2]; !n.Using || n.Holder != 2 || n.Asked || len(n.Queue) != 0 || !slices.Equal(nw.enters, []int{2}) {
		t.Fatalf("node 2 with the token: %+v, entries %v", n, nw.enters)
	}
	// In the critical section a REQUEST waits; the release passes the token.
	nw.step(2, node.Input{Kind: node.InMsg, From: 1, Msg: raymond.Request{}})
	if len(nw.flight) != 0 {
		t.Fatalf("a node in the critical section sent %v", nw.flight)
	}
	nw.cmd(2, node.CmdRelease)
	if n := nw.nodes[2]; n.Using || n.Holder != 1 || len(nw.flight) != 1 || nw.flight[0].To != 1 {
		t.Fatalf("node 2 after its release: %+v, in flight %v", n, nw.flight)
	}
}

// A request while asking, or while in the critical section, is ignored; a
// release outside it too.
func TestIgnored(t *testing.T) {
	nw := newNet(t, raymond.Line(3))
	nw.cmd(3, node.CmdRequest)
	nw.cmd(3, node.CmdRequest)
	nw.cmd(1, node.CmdRelease)
	if n := nw.nodes[3]; !slices.Equal(n.Queue, []int{3}) || nw.sent["REQUEST"] != 1 || nw.nodes[1].Holder != 1 {
		t.Fatalf("node 3 asked twice: %+v, sent %v", n, nw.sent)
	}
}

// The planted bug: a node that passes the token on without resetting
// Asked never asks for it again, so its next request is never granted.
func TestForgetAskedStarves(t *testing.T) {
	for _, forget := range []bool{false, true} {
		nw := newNetOf(t, raymond.Config{Tree: raymond.Line(3), ForgetAsked: forget})
		nw.cmd(3, node.CmdRequest) // 2 asks 1 for 3, and keeps Asked
		nw.settle(nil)
		nw.cmd(1, node.CmdRequest) // 1 asks 2, which never asks 3
		nw.settle(nil)
		if granted := slices.Equal(nw.enters, []int{3, 1}); granted == forget {
			t.Fatalf("ForgetAsked %v: entries %v", forget, nw.enters)
		}
	}
}

func TestTreeValidate(t *testing.T) {
	for _, tc := range []struct {
		tree raymond.Tree
		err  string
	}{
		{raymond.Line(1), ""},
		{raymond.Binary(7), ""},
		{raymond.Tree{}, "a tree needs at least one node"},
		{raymond.Tree{0, 0}, "a tree has one root (parent 0), this one has 2"},
		{raymond.Tree{2, 1}, "a tree has one root (parent 0), this one has 0"},
		{raymond.Tree{0, 3, 2}, "node 2 does not reach the root: its parents make a cycle"},
		{raymond.Tree{0, 4}, "node 2: parent 4 is not a node 1..2"},
		{raymond.Tree{0, 2}, "node 2 is its own parent"},
	} {
		err := tc.tree.Validate()
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.err {
				t.Fatalf("%v: %q, want %q", tc.tree, got, tc.err)
			}
		} else if tc.err != "" {
			t.Fatalf("%v: no error, want %q", tc.tree, tc.err)
		}
	}
}

// The shapes --tree names, their edges and diameters.
func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		tree     raymond.Tree
		want     raymond.Tree
		edges    [][2]int
		diameter int
	}{
		{raymond.Line(4), raymond.Tree{0, 1, 2, 3}, [][2]int{{1, 2}, {2, 3}, {3, 4}}, 3},
		{raymond.Star(4), raymond.Tree{0, 1, 1, 1}, [][2]int{{1, 2}, {1, 3}, {1, 4}}, 2},
		{raymond.Binary(7), raymond.Tree{0, 1, 1, 2, 2, 3, 3}, [][2]int{{1, 2}, {1, 3}, {2, 4}, {2, 5}, {3, 6}, {3, 7}}, 4},
	} {
		if !slices.Equal(tc.tree, tc.want) || !slices.Equal(tc.tree.Edges(), tc.edges) || tc.tree.Diameter() != tc.diameter {
			t.Fatalf("%v: edges %v, diameter %d; want %v, %v, %d", tc.tree, tc.tree.Edges(), tc.tree.Diameter(), tc.want, tc.edges, tc.diameter)
		}
	}
}

// The start announces the token at the root only, for the one-token
// property; it sends nothing.
func TestStartAnnouncesTheToken(t *testing.T) {
	for i, want := range []string{"token T created", ""} {
		var out node.Output
		raymond.New(raymond.Config{Tree: raymond.Line(2)}, i+1).Step(node.Input{Kind: node.InCmd, Cmd: node.CmdStart}, &out)
		got := ""
		if len(out.Events) > 0 {
			got = out.Events[0].Note
		}
		if got != want || len(out.Sends) != 0 || len(out.Events) > 1 {
			t.Fatalf("node %d started: %+v, want the note %q", i+1, out, want)
		}
	}
}
