package canon

import (
	"encoding/binary"
	"math"
	"reflect"
	"sync"
	"unsafe"
)

// The compiled state keys: a speed-up of AppendState, the key of every
// node state the exhaustive checker meets when the node has no AppendKey
// of its own. The plain encoder (encoder.value, canon.go) asks reflection
// for every field of every state; here each type is read once and turned
// into a function that reads its fields at their offsets. It writes the
// same bytes as the plain encoder (TestCompiledKeysAreThePlainOnes): the
// plain one stays as the definition, and as the path for what this file
// does not compile (maps, interfaces and complex numbers, and recursive
// types, whose cycles the plain encoder detects), which then takes the
// plain path whole.
//
// Gain, with derived keys (BenchmarkCheck/.../impl=por/workers=1/
// keys=derived, ./mutex; medians of 6 runs interleaved with a build whose
// AppendState takes the plain path, on one quiet 2-core machine):
// ricart-agrawala-2 4.05 s -> 3.40 s (16%), lamport-tla 4.70 s -> 4.02 s
// (14%).

// keyFn appends the state encoding of the value at p.
type keyFn func(b []byte, p unsafe.Pointer) []byte

// compiled is what AppendState keeps for a node's dynamic type.
type compiled struct {
	fn   keyFn  // nil: the plain encoder
	name []byte // the interface header: 1, the type name's length, the name
	// scratch holds room for a copy of a value that is not a pointer,
	// whose address an interface does not give (unsafe.Pointer to a new
	// value of the type)
	scratch sync.Pool
}

var stateKeys sync.Map // reflect.Type -> *compiled

// appendStateFast is AppendState by t's compiled key, or false where
// there is none.
func appendStateFast(b []byte, v any) ([]byte, bool) {
	t := reflect.TypeOf(v)
	if t == nil {
		return b, false
	}
	c := compiledOf(t)
	if c.fn == nil {
		return b, false
	}
	b = append(b, c.name...)
	rv := reflect.ValueOf(v)
	if t.Kind() == reflect.Pointer {
		q := rv.UnsafePointer()
		return c.fn(b, unsafe.Pointer(&q)), true
	}
	p := c.scratch.Get().(unsafe.Pointer)
	reflect.NewAt(t, p).Elem().Set(rv)
	b = c.fn(b, p)
	c.scratch.Put(p)
	return b, true
}

func compiledOf(t reflect.Type) *compiled {
	if c, ok := stateKeys.Load(t); ok {
		return c.(*compiled)
	}
	name := typeName(t)
	c := &compiled{fn: compileKey(t, map[reflect.Type]bool{})}
	c.name = binary.AppendUvarint([]byte{1}, uint64(len(name)))
	c.name = append(c.name, name...)
	c.scratch.New = func() any { return reflect.New(t).UnsafePointer() }
	got, _ := stateKeys.LoadOrStore(t, c)
	return got.(*compiled)
}

// compileKey is t's key function, nil where t holds what this file does
// not compile. inside holds the types being compiled: meeting one again
// is a recursive type.
func compileKey(t reflect.Type, inside map[reflect.Type]bool) keyFn {
	if inside[t] {
		return nil
	}
	inside[t] = true
	defer delete(inside, t)
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, p unsafe.Pointer) []byte {
			if *(*bool)(p) {
				return append(b, 1)
			}
			return append(b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intKey(t.Size())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintKey(t.Size())
	case reflect.Float32:
		return func(b []byte, p unsafe.Pointer) []byte {
			return binary.BigEndian.AppendUint32(b, math.Float32bits(*(*float32)(p)))
		}
	case reflect.Float64:
		return func(b []byte, p unsafe.Pointer) []byte {
			return binary.BigEndian.AppendUint64(b, math.Float64bits(*(*float64)(p)))
		}
	case reflect.String:
		return func(b []byte, p unsafe.Pointer) []byte {
			s := *(*string)(p)
			return append(binary.AppendUvarint(b, uint64(len(s))), s...)
		}
	case reflect.Pointer:
		return pointerKey(t, inside)
	case reflect.Slice:
		return sliceKey(t, inside)
	case reflect.Array:
		return arrayKey(t, inside)
	case reflect.Struct:
		return structKey(t, inside)
	}
	return nil // Map, Interface, Complex, Func, Chan, UnsafePointer
}

func intKey(size uintptr) keyFn {
	read := map[uintptr]func(unsafe.Pointer) int64{
		1: func(p unsafe.Pointer) int64 { return int64(*(*int8)(p)) },
		2: func(p unsafe.Pointer) int64 { return int64(*(*int16)(p)) },
		4: func(p unsafe.Pointer) int64 { return int64(*(*int32)(p)) },
		8: func(p unsafe.Pointer) int64 { return *(*int64)(p) },
	}[size]
	return func(b []byte, p unsafe.Pointer) []byte { return binary.AppendVarint(b, read(p)) }
}

func uintKey(size uintptr) keyFn {
	read := map[uintptr]func(unsafe.Pointer) uint64{
		1: func(p unsafe.Pointer) uint64 { return uint64(*(*uint8)(p)) },
		2: func(p unsafe.Pointer) uint64 { return uint64(*(*uint16)(p)) },
		4: func(p unsafe.Pointer) uint64 { return uint64(*(*uint32)(p)) },
		8: func(p unsafe.Pointer) uint64 { return *(*uint64)(p) },
	}[size]
	return func(b []byte, p unsafe.Pointer) []byte { return binary.AppendUvarint(b, read(p)) }
}

func pointerKey(t reflect.Type, inside map[reflect.Type]bool) keyFn {
	elem := compileKey(t.Elem(), inside)
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer) []byte {
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return append(b, 0)
		}
		return elem(append(b, 1), q)
	}
}

// sliceHeader is how a slice is laid out (as reflect.SliceHeader says).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// sliceKey writes a slice as the plain state encoder does: its length
// plus 1 (a nil slice as an empty one), then its elements (bytes as
// they are).
func sliceKey(t reflect.Type, inside map[reflect.Type]bool) keyFn {
	if t.Elem().Kind() == reflect.Uint8 {
		return func(b []byte, p unsafe.Pointer) []byte {
			h := (*sliceHeader)(p)
			b = binary.AppendUvarint(b, uint64(h.len)+1)
			if h.len == 0 {
				return b
			}
			return append(b, unsafe.Slice((*byte)(h.data), h.len)...)
		}
	}
	elem, size := compileKey(t.Elem(), inside), t.Elem().Size()
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer) []byte {
		h := (*sliceHeader)(p)
		b = binary.AppendUvarint(b, uint64(h.len)+1)
		for k := range h.len {
			b = elem(b, unsafe.Add(h.data, uintptr(k)*size))
		}
		return b
	}
}

func arrayKey(t reflect.Type, inside map[reflect.Type]bool) keyFn {
	elem, size, n := compileKey(t.Elem(), inside), t.Elem().Size(), t.Len()
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer) []byte {
		for k := range n {
			b = elem(b, unsafe.Add(p, uintptr(k)*size))
		}
		return b
	}
}

// structKey writes the fields in order, but the Fixed ones.
func structKey(t reflect.Type, inside map[reflect.Type]bool) keyFn {
	type field struct {
		off uintptr
		fn  keyFn
	}
	var fs []field
	for k := range t.NumField() {
		f := t.Field(k)
		if Fixed(f) {
			continue
		}
		fn := compileKey(f.Type, inside)
		if fn == nil {
			return nil
		}
		fs = append(fs, field{f.Offset, fn})
	}
	return func(b []byte, p unsafe.Pointer) []byte {
		for _, f := range fs {
			b = f.fn(b, unsafe.Add(p, f.off))
		}
		return b
	}
}
