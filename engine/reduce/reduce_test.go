package reduce_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

type entry struct{ t, from int }

// clocked is a node whose clone shares its queue and its config.
type clocked struct {
	cfg   *config
	clock int
	queue []entry
	seen  map[int]bool
	req   int
	done  bool
}

type config struct{ index, next int }

func (n *clocked) Step(node.Input, *node.Output) {}

func (n *clocked) Values(v *node.Values) {
	v.Clock(&n.clock)
	for k := range n.queue {
		v.Stamp(&n.queue[k].t)
		v.Index(&n.queue[k].from)
	}
	v.Index(&n.cfg.index)
	v.ID(n.cfg.index, &n.req)
	v.Unused(&n.seen)
	v.Unused(&n.done)
}

type msg struct{ T, ReqT int }

func (msg) Type() string { return "M" }

func (m *msg) Values(v *node.Values) {
	v.Clock(&m.T)
	if m.ReqT != 0 {
		v.Stamp(&m.ReqT)
	}
}

func TestMapCopiesWhatItWrites(t *testing.T) {
	n := &clocked{cfg: &config{index: 2, next: 3}, clock: 7, queue: []entry{{5, 1}, {6, 2}}, seen: map[int]bool{1: true}, req: 4, done: true}
	clone := *n
	f, ok := reduce.Read(n)
	if !ok || !slices.Equal(f.Clocks, []int{7}) || !slices.Equal(f.Stamps, []int{5, 6}) || !slices.Equal(f.Indices, []int{1, 2, 2}) ||
		!slices.Equal(f.IDs, []node.ID{{Owner: 2, N: 4}}) || !f.Exact {
		t.Fatalf("Read = %+v, %v", f, ok)
	}
	if l, _ := f.Least(); l != 5 {
		t.Errorf("Least = %d, want 5", l)
	}
	sub := func(v int) int { return v - 4 }
	got := reduce.Map(n, reduce.Mapping{Clock: sub, Stamp: sub, Index: func(i int) int { return 4 - i },
		ID: func(node.ID) int { return 1 }, Dead: true}).(*clocked)
	want := &clocked{cfg: &config{index: 2, next: 3}, clock: 3, queue: []entry{{1, 3}, {2, 2}}, seen: map[int]bool{}, req: 1}
	if got.clock != want.clock || !slices.Equal(got.queue, want.queue) || *got.cfg != *want.cfg || len(got.seen) != 0 || got.seen == nil || got.done || got.req != 1 {
		t.Errorf("Map = %+v (cfg %+v), want %+v", got, got.cfg, want)
	}
	if n.clock != 7 || !slices.Equal(n.queue, []entry{{5, 1}, {6, 2}}) || n.cfg.index != 2 || !n.seen[1] || !n.done || n.req != 4 {
		t.Errorf("Map changed its argument: %+v", n)
	}
	if &clone.queue[0] != &n.queue[0] || !slices.Equal(clone.queue, n.queue) || clone.cfg.index != 2 {
		t.Errorf("Map changed a clone's shared storage")
	}
}

func TestMapMessage(t *testing.T) {
	var m node.Msg = msg{T: 9, ReqT: 0}
	if !reduce.Declares(m) {
		t.Fatal("a message that declares on its pointer: Declares false")
	}
	f, _ := reduce.Read(m)
	if c, has := f.Brings(); !has || c != 9 || len(f.Stamps) != 0 {
		t.Errorf("Read(%v) = %+v", m, f)
	}
	got := reduce.Map(m, reduce.Mapping{Clock: func(v int) int { return v - 8 }, Stamp: func(int) int { return 99 }})
	if got != (msg{T: 1}) {
		t.Errorf("Map = %v, want {1 0}: a 0 not declared stays", got)
	}
	if reduce.Declares(struct{}{}) {
		t.Error("a value without Values: Declares true")
	}
}

type careless struct{ n int }

func (c *careless) Step(node.Input, *node.Output) {}

func (c *careless) Values(v *node.Values) { v.Unused(c.n) }

// Unused takes a pointer: a value is a bug of the declaration, named.
func TestUnusedWithoutAPointerPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "int is not a pointer") {
			t.Errorf("recovered %v", r)
		}
	}()
	reduce.Map(&careless{n: 3}, reduce.Mapping{Dead: true})
}
