package canon

import (
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Copy returns a deep copy of v: every slice, map and pointer v reaches
// is copied, so that changing the copy in place never changes v, and the
// other way round. Unexported fields are copied too, but a Fixed or
// Shared field, shared by v and its copy. Strings, which
// cannot change, are shared; a func, chan or unsafe pointer (Check
// refuses them) is shared as it is. Two pointers to one value in v
// become pointers to two values in the copy: Copy does not keep
// aliasing, which a node state that is data does not need. A slice's
// spare capacity is not copied, so an append to the copy never writes
// into an array v holds.
func Copy(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if t := rv.Type(); t.Kind() == reflect.Pointer && !rv.IsNil() && t.Elem().Size() > 0 {
		// a node is a pointer: copy what it points to into a new one
		c := reflect.New(t.Elem())
		c.Elem().Set(at(t.Elem(), rv.UnsafePointer()))
		if f := planOf(t.Elem()).fix; f != nil {
			f(c.UnsafePointer())
		}
		return c.Interface()
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	if f := planOf(rv.Type()).fix; f != nil {
		f(c.Addr().UnsafePointer())
	}
	return c.Interface()
}

// A plan is how to turn a shallow copy of a value of one type into a
// deep one, in place: fix is given the address of the copy and replaces
// each slice, map and pointer it holds by a copy of what it points to.
// fix is nil for a type that holds none (numbers, strings, structs of
// them), whose shallow copy is already deep. Plans are built once per
// type and kept: reflection reads the type once, and a copy then walks
// only the fields that need it.
type plan struct {
	fix func(p unsafe.Pointer)
	// built is false while the plan is being built: a recursive type
	// (a list whose node points to the next) meets its own plan before
	// its fix is known.
	built bool
}

var (
	plansMu sync.Mutex
	plans   sync.Map // reflect.Type -> *plan, complete
)

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	plansMu.Lock()
	defer plansMu.Unlock()
	building := map[reflect.Type]*plan{}
	p := build(t, building)
	for bt, bp := range building {
		plans.Store(bt, bp)
	}
	return p
}

// build makes t's plan. building holds the plans being built, so that a
// recursive type refers to its own plan, filled in when it is done:
// whoever holds a plan not yet built reads its fix when the copy runs,
// not when it is built.
func build(t reflect.Type, building map[reflect.Type]*plan) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	if p, ok := building[t]; ok {
		return p
	}
	p := &plan{}
	building[t] = p
	switch t.Kind() {
	case reflect.Pointer:
		p.fix = pointerFix(t, build(t.Elem(), building))
	case reflect.Slice:
		p.fix = sliceFix(t, build(t.Elem(), building))
	case reflect.Map:
		p.fix = mapFix(t, build(t.Elem(), building))
	case reflect.Interface:
		p.fix = interfaceFix(t)
	case reflect.Array:
		if e := build(t.Elem(), building); (e.fix != nil || !e.built) && t.Len() > 0 {
			p.fix = arrayFix(t, e)
		}
	case reflect.Struct:
		p.fix = structFix(t, building)
	}
	p.built = true
	return p
}

// at is the value of type t at address p, settable even where it is an
// unexported field (reflect refuses to set those through the field):
// the copy owns that memory, so writing it is sound.
func at(t reflect.Type, p unsafe.Pointer) reflect.Value {
	return reflect.NewAt(t, p).Elem()
}

func pointerFix(t reflect.Type, elem *plan) func(unsafe.Pointer) {
	et := t.Elem()
	return func(p unsafe.Pointer) {
		old := *(*unsafe.Pointer)(p)
		if old == nil || et.Size() == 0 {
			return
		}
		c := reflect.New(et)
		c.Elem().Set(at(et, old))
		if elem.fix != nil {
			elem.fix(c.UnsafePointer())
		}
		*(*unsafe.Pointer)(p) = c.UnsafePointer()
	}
}

func sliceFix(t reflect.Type, elem *plan) func(unsafe.Pointer) {
	size := t.Elem().Size()
	return func(p unsafe.Pointer) {
		v := at(t, p)
		if v.IsNil() {
			return
		}
		c := reflect.MakeSlice(t, v.Len(), v.Len())
		reflect.Copy(c, v)
		if elem.fix != nil && c.Len() > 0 {
			base := c.UnsafePointer()
			for k := range c.Len() {
				elem.fix(unsafe.Add(base, uintptr(k)*size))
			}
		}
		v.Set(c)
	}
}

// mapFix copies a map's values deeply; its keys, which a map never
// changes, are shared.
func mapFix(t reflect.Type, elem *plan) func(unsafe.Pointer) {
	et := t.Elem()
	return func(p unsafe.Pointer) {
		v := at(t, p)
		if v.IsNil() {
			return
		}
		c := reflect.MakeMapWithSize(t, v.Len())
		tmp := reflect.New(et).Elem()
		for it := v.MapRange(); it.Next(); {
			tmp.Set(it.Value())
			if elem.fix != nil {
				elem.fix(tmp.Addr().UnsafePointer())
			}
			c.SetMapIndex(it.Key(), tmp)
		}
		v.Set(c)
	}
}

// interfaceFix copies the value an interface holds when its dynamic type
// holds a slice, map or pointer; any other value in an interface cannot
// be changed in place, and is shared.
func interfaceFix(t reflect.Type) func(unsafe.Pointer) {
	return func(p unsafe.Pointer) {
		v := at(t, p)
		if v.IsNil() {
			return
		}
		d := v.Elem()
		dp := planOf(d.Type())
		if dp.fix == nil {
			return
		}
		c := reflect.New(d.Type()).Elem()
		c.Set(d)
		dp.fix(c.Addr().UnsafePointer())
		v.Set(c)
	}
}

func arrayFix(t reflect.Type, elem *plan) func(unsafe.Pointer) {
	n, size := t.Len(), t.Elem().Size()
	return func(p unsafe.Pointer) {
		for k := range n {
			if elem.fix == nil {
				return
			}
			elem.fix(unsafe.Add(p, uintptr(k)*size))
		}
	}
}

// structFix fixes the fields that need it, each at its offset.
func structFix(t reflect.Type, building map[reflect.Type]*plan) func(unsafe.Pointer) {
	type field struct {
		off uintptr
		p   *plan
	}
	var fs []field
	for k := range t.NumField() {
		f := t.Field(k)
		if Fixed(f) || Shared(f) {
			continue // shared by every copy
		}
		fp := build(f.Type, building)
		if fp.fix != nil || !fp.built {
			fs = append(fs, field{f.Offset, fp})
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return func(p unsafe.Pointer) {
		for _, f := range fs {
			if f.p.fix != nil {
				f.p.fix(unsafe.Add(p, f.off))
			}
		}
	}
}

// Fixed reports whether a struct field is tagged `ringlab:"fixed"`: set
// when the value is built and never changed after (its configuration,
// its index, a func that names its peers). Copy shares such a field
// between a value and its copies, AppendState leaves it out, and Check
// lets it hold what it refuses elsewhere. A Step that changes a fixed
// field breaks that promise, which engine/vet checks.
func Fixed(f reflect.StructField) bool {
	return f.Tag.Get("ringlab") == "fixed"
}

// Shared reports whether a struct field is tagged `ringlab:"shared"`: a
// slice, map or pointer that the node's Step never writes through, only
// replaces (n.queue = slices.Insert(slices.Clone(n.queue), ...)), so that
// a copy may share what it points to, as a hand-written Clone would.
// Copy shares it; AppendState keys it as any other field. A Step that
// writes into it in place (or appends into its spare capacity) breaks
// the promise, and engine/vet's clone check says so, naming the field.
func Shared(f reflect.StructField) bool {
	return f.Tag.Get("ringlab") == "shared"
}

// Check reports the first place in values of type t that holds what the
// engine can neither copy nor compare: a func, a chan or an unsafe
// pointer, as an *Error whose Path names the type and the field (as
// "raymond.Node.onGrant"), but in a Fixed field. An interface field passes: what it holds is
// only known when it holds it, and Append refuses it then.
func Check(t reflect.Type) error {
	name := t.String()
	if t.Kind() == reflect.Pointer && t.Elem().Name() != "" {
		name = t.Elem().String()
		t = t.Elem()
	}
	path, why := check(t, map[reflect.Type]bool{})
	if why == "" {
		return nil
	}
	return &Error{Path: name + path, Why: why}
}

func check(t reflect.Type, seen map[reflect.Type]bool) (path, why string) {
	if seen[t] {
		return "", ""
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return "", strings.ToLower(t.Kind().String()) + " values cannot be copied or compared"
	case reflect.Pointer, reflect.Slice, reflect.Array:
		path, why = check(t.Elem(), seen)
		if t.Kind() != reflect.Pointer {
			path = "[]" + path
		}
	case reflect.Map:
		if path, why = check(t.Key(), seen); why != "" {
			return "[key]" + path, why
		}
		path, why = check(t.Elem(), seen)
		path = "[value]" + path
	case reflect.Struct:
		for k := range t.NumField() {
			if Fixed(t.Field(k)) {
				continue
			}
			if path, why = check(t.Field(k).Type, seen); why != "" {
				return "." + t.Field(k).Name + path, why
			}
		}
	}
	return path, why
}
