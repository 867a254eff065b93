package reduction

import (
	"fmt"
	"slices"
	"testing"

	"ringlab/engine/node"
)

// clocked is a node that declares a clock and a request's identifier.
type clocked struct{ C, Req int }

func (*clocked) Step(node.Input, *node.Output) {}

func (c *clocked) Values(v *node.Values) {
	v.Clock(&c.C)
	v.ID(1, &c.Req)
}

// tick is a message that brings a clock.
type tick struct{ C int }

func (tick) Type() string { return "tick" }

func (t *tick) Values(v *node.Values) { v.Clock(&t.C) }

// space is a Space over plain slices: a node or message is interned by
// what fmt prints of it.
type space struct {
	nodes  []node.Node
	msgs   []node.Msg
	ids    map[string]uint32
	broken string
}

func (sp *space) intern(x any, add func() uint32) uint32 {
	k := fmt.Sprintf("%T%+v", x, x)
	if id, ok := sp.ids[k]; ok {
		return id
	}
	id := add()
	sp.ids[k] = id
	return id
}

func (sp *space) Node(id uint32) node.Node { return sp.nodes[id] }
func (sp *space) Msg(id uint32) node.Msg   { return sp.msgs[id] }

func (sp *space) InternNode(_ int, nd node.Node) uint32 {
	return sp.intern(nd, func() uint32 { sp.nodes = append(sp.nodes, nd); return uint32(len(sp.nodes) - 1) })
}

func (sp *space) InternMsg(msg node.Msg, _ string) uint32 {
	return sp.intern(msg, func() uint32 { sp.msgs = append(sp.msgs, msg); return uint32(len(sp.msgs) - 1) })
}

func (sp *space) EnvStamps(_ uint32, ts []int) []int { return ts }

func (sp *space) RenameEnvStamps(env uint32, _ func(int) int) uint32 { return env }

func (sp *space) Broken(what string) { sp.broken = what }

// build interns nodes (one per node index) and the messages, all on the
// link from node 1 to node 2.
func build(sp *space, nodes []clocked, msgs []tick) *State {
	s := &State{}
	for i := range nodes {
		s.Nodes = append(s.Nodes, sp.InternNode(i+1, &nodes[i]))
	}
	for i := range msgs {
		s.Net = append(s.Net, Item{Link: 1, ID: sp.InternMsg(&msgs[i], "")})
	}
	return s
}

// The clock shift lowers every clock so that the least is 1, and the
// renaming numbers the identifiers 1..k in their order; the state given
// is left as it was.
func TestReduceShiftsAndRenames(t *testing.T) {
	sp := &space{ids: map[string]uint32{}}
	r := New(sp)
	s := build(sp, []clocked{{C: 5, Req: 7}, {C: 9, Req: 4}}, []tick{{C: 6}})
	nodes, net := slices.Clone(s.Nodes), slices.Clone(s.Net)
	out := r.Reduce(s)
	if !slices.Equal(s.Nodes, nodes) || !slices.Equal(s.Net, net) {
		t.Fatalf("Reduce changed its argument")
	}
	var got []clocked
	for _, id := range out.Nodes {
		got = append(got, *sp.Node(id).(*clocked))
	}
	if want := []clocked{{C: 1, Req: 2}, {C: 5, Req: 1}}; !slices.Equal(got, want) {
		t.Errorf("nodes: got %+v, want %+v", got, want)
	}
	if m := *sp.Msg(out.Net[0].ID).(*tick); m.C != 2 || out.Net[0].Link != 1 {
		t.Errorf("message: got %+v on link %d, want a clock of 2 on link 1", m, out.Net[0].Link)
	}
	own := &State{Nodes: slices.Clone(out.Nodes), Net: slices.Clone(out.Net)}
	if again := r.Reduce(own); again != own {
		t.Errorf("a reduced state reduced again changed: %+v", again)
	}
}

// A state that may not be reduced is returned as it is: a command with
// an Arg pending, or a message that declares nothing.
func TestReduceLeavesUndeclared(t *testing.T) {
	sp := &space{ids: map[string]uint32{}}
	r := New(sp)
	s := build(sp, []clocked{{C: 5, Req: 1}}, nil)
	s.ArgPending = true
	if r.Reduce(s) != s {
		t.Errorf("reduced with a command's Arg pending")
	}
	s.ArgPending = false
	s.Net = append(s.Net, Item{Link: 0, ID: sp.InternMsg(plain{}, "")})
	if r.Reduce(s) != s {
		t.Errorf("reduced with a message that declares nothing")
	}
	if sp.broken != "" {
		t.Errorf("broken: %s", sp.broken)
	}
}

// plain is a message that declares nothing.
type plain struct{}

func (plain) Type() string { return "plain" }
