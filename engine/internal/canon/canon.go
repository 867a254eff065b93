// Package canon encodes a Go value canonically: two values have one
// encoding exactly when they are the same value of the same type, field
// by field. It is how the engine tells messages (and, in engine/vet, node
// states) apart: by what they hold, never by how they print.
//
// The encoding reads the value by reflection (AppendState, the key of
// every node state a search meets, by functions compiled once per type
// from it: statekeys.go) and calls none of its
// methods (String, Format, Error, MarshalJSON, ...): a lossy String
// cannot make two different values one. It covers unexported fields,
// follows pointers (a nil pointer is marked as such), writes maps in the
// order of their encoded keys, and writes the dynamic type of every
// interface value. Functions, channels and unsafe pointers have no value
// to encode: Append refuses them with an error naming the field's path.
//
// A nil slice or map and an empty one encode differently, as
// reflect.DeepEqual tells them apart.
package canon

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
)

// Error is a value Append cannot encode: the path of the field (from the
// value given, as "Msg.Next.F[2]") and why.
type Error struct {
	Path string
	Why  string
}

func (e *Error) Error() string { return "canon: " + e.Path + ": " + e.Why }

// Append appends the canonical encoding of v (its dynamic type, then its
// value) to b.
func Append(b []byte, v any) ([]byte, error) {
	return encoder{b: b}.top(v)
}

// top encodes v, an interface value, with e's options.
func (e encoder) top(v any) ([]byte, error) {
	b := e.b
	if err := e.iface(reflect.ValueOf(v), 0); err != nil {
		return b, e.at(err, "("+typeName(reflect.TypeOf(v))+")")
	}
	return e.b, nil
}

// AppendSpare is Append that also encodes every slice's spare capacity,
// the elements past its length up to its capacity: an append that writes
// into an array shared with another value changes the other's
// AppendSpare encoding though not its Append one. A func, chan or unsafe
// pointer, which Append refuses, is encoded by its address. Two
// encodings compare one value at two moments, not two values.
func AppendSpare(b []byte, v any) ([]byte, error) {
	return encoder{b: b, spare: true}.top(v)
}

// AppendState is Append for a node's state: it leaves out every Fixed
// field, which the node's states all share, and encodes a nil slice or
// map as an empty one, which len, range, append and a lookup cannot tell
// apart (a Step that does, by == nil, is told apart by vet's key
// check): the encoding says which state the node is in and no more.
func AppendState(b []byte, v any) ([]byte, error) {
	if k, ok := appendStateFast(b, v); ok {
		return k, nil
	}
	return appendStatePlain(b, v)
}

// appendStatePlain is AppendState by reflection alone: the definition
// that statekeys.go compiles.
func appendStatePlain(b []byte, v any) ([]byte, error) {
	return encoder{b: b, state: true}.top(v)
}

// maxDepth bounds the nesting Append follows: deeper, the value is taken
// for a cycle.
const maxDepth = 1000

type encoder struct {
	b     []byte
	spare bool
	state bool // leave Fixed fields out (AppendState)
	// ptrs are the pointers being followed, to refuse a cycle.
	ptrs []uintptr
}

// at prefixes err's path with seg (the path is built as the error goes up,
// so that encoding what can be encoded costs nothing for it).
func (e *encoder) at(err error, seg string) error {
	if ce, ok := err.(*Error); ok {
		ce.Path = seg + ce.Path
	}
	return err
}

func (e *encoder) iface(v reflect.Value, depth int) error {
	if !v.IsValid() {
		e.b = append(e.b, 0)
		return nil
	}
	name := typeName(v.Type())
	e.b = binary.AppendUvarint(append(e.b, 1), uint64(len(name)))
	e.b = append(e.b, name...)
	return e.value(v, depth)
}

func (e *encoder) value(v reflect.Value, depth int) error {
	if depth > maxDepth {
		return &Error{Why: fmt.Sprintf("nested more than %d deep (a cycle?)", maxDepth)}
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.b = append(e.b, 1)
		} else {
			e.b = append(e.b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = binary.AppendVarint(e.b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.b = binary.AppendUvarint(e.b, v.Uint())
	case reflect.Float32:
		e.b = binary.BigEndian.AppendUint32(e.b, math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(v.Float()))
	case reflect.Complex64:
		c := v.Complex()
		e.b = binary.BigEndian.AppendUint32(e.b, math.Float32bits(float32(real(c))))
		e.b = binary.BigEndian.AppendUint32(e.b, math.Float32bits(float32(imag(c))))
	case reflect.Complex128:
		c := v.Complex()
		e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(real(c)))
		e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(imag(c)))
	case reflect.String:
		s := v.String()
		e.b = binary.AppendUvarint(e.b, uint64(len(s)))
		e.b = append(e.b, s...)
	case reflect.Array:
		return e.elems(v, v.Len(), depth)
	case reflect.Slice:
		if v.IsNil() {
			e.b = append(e.b, e.nilMark())
			return nil
		}
		e.b = binary.AppendUvarint(e.b, uint64(v.Len())+1)
		n := v.Len()
		if e.spare {
			n = v.Cap()
			e.b = binary.AppendUvarint(e.b, uint64(n))
			v = v.Slice(0, n)
		}
		return e.elems(v, n, depth)
	case reflect.Map:
		return e.mapValue(v, depth)
	case reflect.Pointer:
		if v.IsNil() {
			e.b = append(e.b, 0)
			return nil
		}
		p := v.Pointer()
		if slices.Contains(e.ptrs, p) {
			return &Error{Why: "a pointer cycle"}
		}
		e.ptrs = append(e.ptrs, p)
		e.b = append(e.b, 1)
		err := e.value(v.Elem(), depth+1)
		e.ptrs = e.ptrs[:len(e.ptrs)-1]
		if err != nil {
			return err
		}
	case reflect.Interface:
		if err := e.iface(v.Elem(), depth+1); err != nil {
			return e.at(err, "("+typeName(v.Elem().Type())+")")
		}
	case reflect.Struct:
		t := v.Type()
		var skip []bool
		if e.state {
			skip = fixedFields(t)
		}
		for k := range v.NumField() {
			if skip != nil && skip[k] {
				continue
			}
			if err := e.value(v.Field(k), depth+1); err != nil {
				return e.at(err, "."+t.Field(k).Name)
			}
		}
	default: // Func, Chan, UnsafePointer
		if e.spare {
			e.b = binary.AppendUvarint(e.b, uint64(v.Pointer()))
			return nil
		}
		return &Error{Why: "a " + v.Kind().String() + " has no value to encode"}
	}
	return nil
}

// nilMark is the encoding of a nil slice or map: 0, but for AppendState
// 1, the encoding of an empty one (a length of 0, plus 1).
func (e *encoder) nilMark() byte {
	if e.state {
		return 1
	}
	return 0
}

// elems encodes the first n elements of v, an array or a slice.
func (e *encoder) elems(v reflect.Value, n, depth int) error {
	if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
		e.b = append(e.b, v.Bytes()...)
		return nil
	}
	for k := range n {
		if err := e.value(v.Index(k), depth+1); err != nil {
			return e.at(err, "["+strconv.Itoa(k)+"]")
		}
	}
	return nil
}

// mapValue encodes a map: its length, then its entries in the order of
// their keys' encodings.
func (e *encoder) mapValue(v reflect.Value, depth int) error {
	if v.IsNil() {
		e.b = append(e.b, e.nilMark())
		return nil
	}
	type entry struct {
		key []byte
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	sub := encoder{spare: e.spare, state: e.state, ptrs: e.ptrs}
	for it := v.MapRange(); it.Next(); {
		sub.b = nil
		if err := sub.value(it.Key(), depth+1); err != nil {
			return e.at(err, "[key]")
		}
		entries = append(entries, entry{sub.b, it.Value()})
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(string(a.key), string(b.key)) })
	e.b = binary.AppendUvarint(e.b, uint64(len(entries))+1)
	for _, en := range entries {
		e.b = append(e.b, en.key...)
		if err := e.value(en.val, depth+1); err != nil {
			return e.at(err, "[value]")
		}
	}
	return nil
}

var fixed sync.Map // reflect.Type -> []bool

// fixedFields says, by field index, which of struct type t's fields are
// Fixed (nil: none), read once per type.
func fixedFields(t reflect.Type) []bool {
	if v, ok := fixed.Load(t); ok {
		return v.([]bool)
	}
	var skip []bool
	for k := range t.NumField() {
		if Fixed(t.Field(k)) {
			if skip == nil {
				skip = make([]bool, t.NumField())
			}
			skip[k] = true
		}
	}
	fixed.Store(t, skip)
	return skip
}

var names sync.Map // reflect.Type -> string

// typeName names t uniquely in the program: a defined type by its
// package's import path and its name, a composite type by its parts.
func typeName(t reflect.Type) string {
	if t == nil {
		return "nil"
	}
	if s, ok := names.Load(t); ok {
		return s.(string)
	}
	var s string
	switch {
	case t.Name() != "" && t.PkgPath() != "":
		s = t.PkgPath() + "." + t.Name()
	case t.Name() != "":
		s = t.Name() // predeclared: int, string, error, ...
	case t.Kind() == reflect.Pointer:
		s = "*" + typeName(t.Elem())
	case t.Kind() == reflect.Slice:
		s = "[]" + typeName(t.Elem())
	case t.Kind() == reflect.Array:
		s = "[" + strconv.Itoa(t.Len()) + "]" + typeName(t.Elem())
	case t.Kind() == reflect.Map:
		s = "map[" + typeName(t.Key()) + "]" + typeName(t.Elem())
	case t.Kind() == reflect.Struct:
		s = "struct{"
		for k := range t.NumField() {
			f := t.Field(k)
			if k > 0 {
				s += "; "
			}
			s += f.PkgPath + "." + f.Name + " " + typeName(f.Type)
		}
		s += "}"
	default:
		s = t.String()
	}
	names.Store(t, s)
	return s
}

var exact sync.Map // reflect.Type -> bool

// EqualIsSame reports whether, for values of the comparable type t, ==
// implies equal encodings, so that a map keyed by the values may stand in
// for their encodings: false for a type that holds a float (0 == -0) or
// an interface (which may hold one). A pointer compares by address, and
// one address holds one value.
func EqualIsSame(t reflect.Type) bool {
	if v, ok := exact.Load(t); ok {
		return v.(bool)
	}
	ok := t.Comparable() && equalIsSame(t)
	exact.Store(t, ok)
	return ok
}

func equalIsSame(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Interface:
		return false
	case reflect.Array:
		return equalIsSame(t.Elem())
	case reflect.Struct:
		for k := range t.NumField() {
			if !equalIsSame(t.Field(k).Type) {
				return false
			}
		}
	}
	return true
}

// Field is one field of a struct and its encoding (AppendSpare's when
// asked for the spare capacity).
type Field struct {
	Name string
	Enc  []byte
}

// Fields encodes v field by field (as Append, or with spare as
// AppendSpare): v's fields if it is a struct or a pointer to one, else v
// itself as one field named "". Comparing two lists says which field of a
// value changed.
func Fields(v any, spare bool) ([]Field, error) {
	return encoder{spare: spare}.fields(v)
}

// StateFields is Fields as AppendState encodes: a Fixed field is left
// out of the list.
func StateFields(v any) ([]Field, error) {
	return encoder{state: true}.fields(v)
}

// fields is Fields with the options of o, an empty encoder.
func (o encoder) fields(v any) ([]Field, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		e := o
		err := e.iface(rv, 0)
		return []Field{{Enc: e.b}}, err
	}
	fs := make([]Field, 0, rv.NumField())
	for k := range rv.NumField() {
		if o.state && Fixed(rv.Type().Field(k)) {
			continue
		}
		e := o
		if err := e.value(rv.Field(k), 1); err != nil {
			return nil, e.at(err, "."+rv.Type().Field(k).Name)
		}
		fs = append(fs, Field{rv.Type().Field(k).Name, e.b})
	}
	return fs, nil
}
