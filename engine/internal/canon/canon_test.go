package canon

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// lossy prints only A: two values that differ in B print the same.
type lossy struct {
	A int
	B int
	c []string
}

func (l lossy) String() string { return "lossy" }

type node struct {
	Next *node
	V    int
}

type holder struct {
	Any any
	M   map[string]int
	F   func()
}

func enc(t *testing.T, v any) []byte {
	t.Helper()
	b, err := Append(nil, v)
	if err != nil {
		t.Fatalf("Append(%#v): %v", v, err)
	}
	return b
}

func TestDistinctValuesDistinctEncodings(t *testing.T) {
	two := &node{V: 2}
	vals := []any{
		nil, 0, int64(0), uint(0), "", "a", "ab", []string{"a", "b"}, []string{"ab"},
		[]int(nil), []int{}, lossy{A: 1}, lossy{A: 1, B: 2}, lossy{A: 1, c: []string{"x"}},
		map[string]int{"a": 1}, map[string]int{"a": 2}, map[string]int{"b": 1}, map[string]int(nil),
		&node{V: 1}, &node{V: 1, Next: two}, (*node)(nil), 0.0, math.Copysign(0, -1), float32(0),
		true, false, [2]int{1, 2}, [2]int{2, 1}, struct{ X any }{1}, struct{ X any }{"1"}, struct{ X any }{},
	}
	seen := map[string]int{}
	for k, v := range vals {
		b := string(enc(t, v))
		if j, ok := seen[b]; ok {
			t.Errorf("values %d (%#v) and %d (%#v) have one encoding %q", j, vals[j], k, v, b)
		}
		seen[b] = k
	}
}

func TestEqualValuesEqualEncodings(t *testing.T) {
	a := map[int]string{}
	b := map[int]string{}
	for k := range 50 {
		a[k] = strings.Repeat("x", k)
		b[49-k] = strings.Repeat("x", 49-k)
	}
	if !bytes.Equal(enc(t, a), enc(t, b)) {
		t.Error("two equal maps built in different orders encode differently")
	}
	x := lossy{A: 1, B: 2, c: []string{"p"}}
	y := lossy{A: 1, B: 2, c: append(make([]string, 0, 8), "p")}
	if !bytes.Equal(enc(t, x), enc(t, y)) {
		t.Error("two equal slices of different capacity encode differently")
	}
	if !bytes.Equal(enc(t, &node{V: 3}), enc(t, &node{V: 3})) {
		t.Error("two pointers to equal values encode differently")
	}
}

func TestRefused(t *testing.T) {
	for _, c := range []struct {
		v    any
		path string
	}{
		{holder{F: func() {}}, "(ringlab/engine/internal/canon.holder).F"},
		{holder{Any: []any{1, make(chan int)}}, "(ringlab/engine/internal/canon.holder).Any([]interface {})[1](chan int)"},
	} {
		_, err := Append(nil, c.v)
		var ce *Error
		if !errors.As(err, &ce) || ce.Path != c.path {
			t.Errorf("Append(%T): error %v, want one at %s", c.v, err, c.path)
		}
	}
	loop := &node{}
	loop.Next = loop
	if _, err := Append(nil, loop); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a pointer cycle: error %v, want a cycle refused", err)
	}
	// A nil func is still a func.
	if _, err := Append(nil, holder{}); err == nil {
		t.Error("a nil func field was encoded")
	}
}

func TestSpareSeesAnAppendIntoSharedCapacity(t *testing.T) {
	orig := lossy{c: append(make([]string, 0, 4), "a")}
	clone := orig // shares c's array
	before, _ := AppendSpare(nil, orig)
	plain, _ := Append(nil, orig)
	clone.c = append(clone.c, "b")
	after, _ := AppendSpare(nil, orig)
	if bytes.Equal(before, after) {
		t.Error("AppendSpare did not see the clone's append into the shared array")
	}
	if p, _ := Append(nil, orig); !bytes.Equal(plain, p) {
		t.Error("Append changed though the original's value did not")
	}
	// A func, which has no value, is one at two moments: AppendSpare
	// takes it by its address.
	h := holder{F: func() {}, Any: []byte("x")}
	a, err := AppendSpare(nil, h)
	if err != nil {
		t.Fatalf("AppendSpare of a func field: %v", err)
	}
	if b, _ := AppendSpare(nil, h); !bytes.Equal(a, b) {
		t.Error("AppendSpare of one value differs at two moments")
	}
	if fs, err := Fields(&h, true); err != nil || len(fs) != 3 || fs[2].Name != "F" {
		t.Errorf("Fields(&holder, spare): %v, %v; want its 3 fields", fs, err)
	}
}

func TestEqualIsSame(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{lossy{}, false}, // a slice: not comparable
		{struct{ A, B int }{}, true},
		{struct{ A float64 }{}, false},
		{struct{ A any }{}, false},
		{[2]string{}, true},
		{&node{}, true},
	} {
		if got := EqualIsSame(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("EqualIsSame(%T) = %v, want %v", c.v, got, c.want)
		}
	}
}
