package canon

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// state is a node state with every kind Copy handles, exported or not.
type state struct {
	N     int
	s     string
	q     []int
	m     map[string][]int
	next  *node
	arr   [2][]int
	any   any
	inner struct{ xs []string }
	empty []int
	none  []int
}

func full() *state {
	return &state{
		N: 1, s: "a", q: []int{1, 2}, m: map[string][]int{"k": {3}},
		next: &node{V: 1, Next: &node{V: 2}}, arr: [2][]int{{4}, {5}},
		any: &node{V: 7}, inner: struct{ xs []string }{[]string{"x"}}, empty: []int{},
	}
}

// mutate changes everything reachable from s in place.
func mutate(s *state) {
	s.N++
	s.q[0] = 9
	s.m["k"][0] = 9
	s.m["new"] = nil
	s.next.Next.V = 9
	s.arr[1][0] = 9
	s.any.(*node).V = 9
	s.inner.xs[0] = "y"
}

func TestCopyIsDeep(t *testing.T) {
	orig := full()
	before := enc(t, orig)
	c := Copy(orig).(*state)
	if !bytes.Equal(enc(t, c), before) {
		t.Fatalf("the copy encodes differently from the original:\n%#v\n%#v", c, orig)
	}
	mutate(c)
	if !bytes.Equal(enc(t, orig), before) {
		t.Errorf("changing the copy changed the original: %#v", orig)
	}
	c2 := Copy(orig).(*state)
	mutate(orig)
	if !bytes.Equal(enc(t, c2), before) {
		t.Errorf("changing the original changed a copy: %#v", c2)
	}
	if c2.none != nil || c2.empty == nil {
		t.Errorf("nil and empty slices not kept: none %#v, empty %#v", c2.none, c2.empty)
	}
}

// TestCopyDropsSpare checks that an append to a copy never writes into
// the original's array (the spare capacity is not shared).
func TestCopyDropsSpare(t *testing.T) {
	q := make([]int, 1, 4)
	orig := &state{q: q}
	c := Copy(orig).(*state)
	c.q = append(c.q, 5)
	if got := q[:2][1]; got != 0 {
		t.Errorf("an append to the copy wrote %d into the original's array", got)
	}
}

func TestCopyPlainValues(t *testing.T) {
	for _, v := range []any{nil, 3, "s", lossy{A: 1, c: []string{"x"}}, []any{1, []int{2}}, map[int]*node{1: {V: 1}}} {
		if got := Copy(v); !reflect.DeepEqual(got, v) {
			t.Errorf("Copy(%#v) = %#v", v, got)
		}
	}
}

func TestCopyRecursiveType(t *testing.T) {
	l := &node{V: 1, Next: &node{V: 2, Next: &node{V: 3}}}
	c := Copy(l).(*node)
	c.Next.Next.V = 9
	if l.Next.Next.V != 3 || c.Next.Next.V != 9 {
		t.Errorf("the list's copy shares its tail")
	}
}

type withFunc struct {
	N    int
	subs []struct{ onGrant func() }
}

type withChan struct{ m map[int]chan int }

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{&state{}, ""},
		{node{}, ""},
		{&withFunc{}, "canon.withFunc.subs[].onGrant: func values cannot be copied or compared"},
		{withChan{}, "canon.withChan.m[value]: chan values cannot be copied or compared"},
		{holder{}, "canon.holder.F: func values cannot be copied or compared"},
	} {
		err := Check(reflect.TypeOf(c.v))
		got := ""
		if err != nil {
			got = strings.TrimPrefix(err.Error(), "canon: ")
		}
		if got != c.want {
			t.Errorf("Check(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}

func BenchmarkCopy(b *testing.B) {
	orig := full()
	for b.Loop() {
		Copy(orig)
	}
}

// configured holds its configuration in a Fixed field, a func among it.
type configured struct {
	cfg   *struct{ name func(int) string } `ringlab:"fixed"`
	clock int
}

// TestFixedField: a Fixed field is shared by the copies, left out of the
// state's encoding (not of Append's), and may hold a func.
func TestFixedField(t *testing.T) {
	a := &configured{cfg: &struct{ name func(int) string }{}, clock: 1}
	b := Copy(a).(*configured)
	if b.cfg != a.cfg {
		t.Errorf("the copy has a configuration of its own")
	}
	other := &configured{cfg: &struct{ name func(int) string }{func(int) string { return "" }}, clock: 1}
	sa, err1 := AppendState(nil, a)
	so, err2 := AppendState(nil, other)
	if err1 != nil || err2 != nil || !bytes.Equal(sa, so) {
		t.Errorf("AppendState: %x (%v) and %x (%v), want one encoding", sa, err1, so, err2)
	}
	other.clock = 2
	if so, _ = AppendState(nil, other); bytes.Equal(sa, so) {
		t.Errorf("AppendState left out the clock")
	}
	if _, err := Append(nil, a); err == nil {
		t.Errorf("Append encoded a func")
	}
	if err := Check(reflect.TypeOf(a)); err != nil {
		t.Errorf("Check refused a Fixed func: %v", err)
	}
}

// TestStateNilIsEmpty: a state's encoding takes a nil slice or map for an
// empty one (Append tells them apart).
func TestStateNilIsEmpty(t *testing.T) {
	type s struct {
		q []int
		m map[int]bool
	}
	a, _ := AppendState(nil, s{})
	b, _ := AppendState(nil, s{[]int{}, map[int]bool{}})
	if !bytes.Equal(a, b) {
		t.Errorf("AppendState: nil %x, empty %x", a, b)
	}
	c, _ := AppendState(nil, s{[]int{0}, map[int]bool{}})
	if bytes.Equal(a, c) {
		t.Errorf("AppendState: empty and one element encode alike")
	}
}

// lamportLike is shaped as Lamport's node: a shared configuration, ints,
// a string and a queue of small structs.
type lamportLike struct {
	cfg        *struct{ N, Index int } `ringlab:"fixed"`
	id, clock  int
	state      string
	reqT, acks int
	queue      []struct{ T, ID, Index int }
	later      int
}

func BenchmarkAppendStateNode(b *testing.B) {
	v := &lamportLike{cfg: &struct{ N, Index int }{3, 1}, id: 1, clock: 7, state: "WANTED", reqT: 5,
		queue: []struct{ T, ID, Index int }{{5, 1, 1}, {6, 2, 2}}}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = AppendState(buf[:0], v)
	}
}

func BenchmarkCopyNode(b *testing.B) {
	v := &lamportLike{cfg: &struct{ N, Index int }{3, 1}, id: 1, clock: 7, state: "WANTED", reqT: 5,
		queue: []struct{ T, ID, Index int }{{5, 1, 1}, {6, 2, 2}}}
	b.ReportAllocs()
	for b.Loop() {
		Copy(v)
	}
}
