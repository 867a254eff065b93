package reduce

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"ringlab/engine/node"
)

// touched returns the addresses v's declaration points to, sorted.
func touched(v *node.Values) []uintptr {
	var as []uintptr
	for _, ps := range [][]*int{v.Clocks, v.Stamps, v.Indices, v.IDs} {
		for _, p := range ps {
			as = append(as, uintptr(unsafe.Pointer(p)))
		}
	}
	for _, d := range v.Dead {
		if reflect.TypeOf(d).Kind() != reflect.Pointer {
			panic(fmt.Sprintf("node.Values.Unused: %T is not a pointer", d))
		}
		as = append(as, reflect.ValueOf(d).Pointer())
	}
	slices.Sort(as)
	return as
}

// private makes v, addressable, share no storage that holds one of the
// addresses in at with any other value: every pointer, slice, map or
// interface on the way to such an address is copied, the rest shared.
// It reports whether it changed v. This is the one place where the
// reductions copy a node (a full deep copy would do too, at more cost).
func private(v reflect.Value, at []uintptr) bool {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return false
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(v.Elem())
		lo := v.Pointer()
		if private(c.Elem(), at) || holds(at, lo, lo+v.Type().Elem().Size()) {
			settable(v).Set(c)
			return true
		}
	case reflect.Slice:
		if v.Len() == 0 {
			return false
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		changed := false
		for i := range c.Len() {
			changed = private(c.Index(i), at) || changed
		}
		lo := v.Pointer()
		if changed || holds(at, lo, lo+uintptr(v.Cap())*v.Type().Elem().Size()) {
			settable(v).Set(c)
			return true
		}
	case reflect.Array:
		changed := false
		for i := range v.Len() {
			changed = private(v.Index(i), at) || changed
		}
		return changed
	case reflect.Struct:
		changed := false
		for i := range v.NumField() {
			changed = private(settable(v.Field(i)), at) || changed
		}
		return changed
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		c := reflect.New(v.Elem().Type()).Elem()
		c.Set(v.Elem())
		if private(c, at) {
			settable(v).Set(c)
			return true
		}
	case reflect.Map:
		return privateMap(v, at)
	}
	return false
}

// privateMap is private for a map: a map's values are not addressable,
// so a declaration points into one only through a pointer or a slice it
// holds; the map is copied if one of its values changes.
func privateMap(v reflect.Value, at []uintptr) bool {
	if v.IsNil() {
		return false
	}
	c := reflect.MakeMapWithSize(v.Type(), v.Len())
	changed := false
	for it := v.MapRange(); it.Next(); {
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(it.Value())
		changed = private(e, at) || changed
		c.SetMapIndex(it.Key(), e)
	}
	if changed {
		settable(v).Set(c)
	}
	return changed
}

// holds reports whether an address of at (sorted) is in [lo, hi).
func holds(at []uintptr, lo, hi uintptr) bool {
	k, _ := slices.BinarySearch(at, lo)
	return k < len(at) && at[k] < hi
}

// settable is v, addressable, made settable even if it is reached through
// unexported fields.
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}
