package canon

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

type keyLeaf struct {
	A int8
	B uint16
	C []byte
	D [3]uint8
	E float64
}

type keyState struct {
	cfg   *keyLeaf `ringlab:"fixed"`
	id    int      `ringlab:"fixed"`
	on    bool
	n     int
	u     uint
	i32   int32
	name  string
	leafs []keyLeaf
	arr   [2]int64
	next  *keyLeaf
	ids   []int
	f     float32
}

// keyWrap is a struct that is not a pointer, as mutex's wrapper of a
// node is: its address comes from a scratch copy.
type keyWrap struct{ nd *keyState }

// keyMapped holds a map: it takes the plain path.
type keyMapped struct{ m map[string]int }

// keyList is recursive: it takes the plain path.
type keyList struct {
	v    int
	next *keyList
}

func leafGen() *rapid.Generator[keyLeaf] {
	return rapid.Custom(func(t *rapid.T) keyLeaf {
		var c []byte
		if rapid.Bool().Draw(t, "nilC") == false {
			c = rapid.SliceOf(rapid.Byte()).Draw(t, "C")
		}
		return keyLeaf{A: rapid.Int8().Draw(t, "A"), B: rapid.Uint16().Draw(t, "B"), C: c,
			D: [3]uint8{rapid.Uint8().Draw(t, "D0"), 7, 0}, E: rapid.Float64().Draw(t, "E")}
	})
}

// TestCompiledKeysAreThePlainOnes: the compiled state key of any value
// is byte for byte the plain encoder's, nil and empty slices, Fixed
// fields, pointers, arrays and a wrapper that is not a pointer included;
// what it does not compile goes the plain way.
func TestCompiledKeysAreThePlainOnes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := &keyState{
			cfg: &keyLeaf{A: 1}, id: rapid.Int().Draw(t, "id"),
			on: rapid.Bool().Draw(t, "on"), n: rapid.Int().Draw(t, "n"), u: rapid.Uint().Draw(t, "u"),
			i32: rapid.Int32().Draw(t, "i32"), name: rapid.String().Draw(t, "name"),
			leafs: rapid.SliceOf(leafGen()).Draw(t, "leafs"),
			arr:   [2]int64{rapid.Int64().Draw(t, "a0"), -1},
			f:     rapid.Float32().Draw(t, "f"),
		}
		if rapid.Bool().Draw(t, "hasNext") {
			l := leafGen().Draw(t, "next")
			s.next = &l
		}
		if rapid.Bool().Draw(t, "hasIDs") {
			s.ids = rapid.SliceOf(rapid.Int()).Draw(t, "ids")
		}
		for _, v := range []any{s, keyWrap{s}, keyWrap{}, (*keyState)(nil), *s, s.n} {
			fast, ok := appendStateFast([]byte("prefix"), v)
			if !ok {
				t.Fatalf("%T: not compiled", v)
			}
			plain, err := appendStatePlain([]byte("prefix"), v)
			if err != nil || !bytes.Equal(fast, plain) {
				t.Fatalf("%T: compiled %x, plain %x (%v)", v, fast, plain, err)
			}
		}
	})
	for _, v := range []any{&keyMapped{map[string]int{"a": 1}}, &keyList{1, &keyList{2, nil}}, nil} {
		if _, ok := appendStateFast(nil, v); ok {
			t.Errorf("%T compiled: it holds a map, is recursive or is nil", v)
		}
	}
}

// TestCompiledKeysTellValuesApart: two values that differ in a field
// that is not Fixed get two keys, and two that differ only in a Fixed one
// get one.
func TestCompiledKeysTellValuesApart(t *testing.T) {
	a := &keyState{n: 1, ids: []int{1, 2}}
	b := &keyState{n: 1, ids: []int{1, 3}}
	c := &keyState{n: 1, ids: []int{1, 2}, id: 9, cfg: &keyLeaf{}}
	ka, _ := AppendState(nil, a)
	kb, _ := AppendState(nil, b)
	kc, _ := AppendState(nil, c)
	if bytes.Equal(ka, kb) || !bytes.Equal(ka, kc) {
		t.Fatalf("keys %x %x %x: ids must tell a from b, the fixed id must not tell a from c", ka, kb, kc)
	}
}
