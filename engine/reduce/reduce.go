// Package reduce reads and rewrites the values that nodes and messages
// declare (node.Valuer) for the exhaustive checker's reductions: the
// clock shift, the low timestamps' renumbering, the gaps' narrowing, the
// identifiers' renaming and the renaming of nodes under a symmetry. Each
// of those collects one class of values from every node and message of a
// state (Read), computes a map, and applies it (Map) to private copies.
package reduce

import (
	"reflect"

	"ringlab/engine/node"
)

// Facts are the values a node or message declares, as read.
type Facts struct {
	Clocks  []int     // the values declared by Clock, in order
	Stamps  []int     // by Stamp
	Indices []int     // by Index
	IDs     []node.ID // by ID, but the zeros ("none")
	Exact   bool      // the node did not say Inexact
}

// Least returns the least clock or timestamp (has: false if none).
func (f Facts) Least() (least int, has bool) {
	for _, vs := range [2][]int{f.Clocks, f.Stamps} {
		for _, v := range vs {
			if !has || v < least {
				least, has = v, true
			}
		}
	}
	return least, has
}

// Floor returns the least clock (has: false if none): a node's own clock,
// below which its timestamps may be renumbered.
func (f Facts) Floor() (floor int, has bool) {
	for _, c := range f.Clocks {
		if !has || c < floor {
			floor, has = c, true
		}
	}
	return floor, has
}

// Brings returns the clock a message brings its receiver, the largest it
// declares (has: false if none).
func (f Facts) Brings() (clock int, has bool) {
	for _, c := range f.Clocks {
		if !has || c > clock {
			clock, has = c, true
		}
	}
	return clock, has
}

// Values returns the clocks and timestamps, appended to vs.
func (f Facts) Values(vs []int) []int {
	return append(append(vs, f.Clocks...), f.Stamps...)
}

// Declares reports whether x, a node or a message, implements
// node.Valuer on itself or on its pointer.
func Declares(x any) bool {
	if _, ok := x.(node.Valuer); ok {
		return true
	}
	return x != nil && reflect.PointerTo(reflect.TypeOf(x)).Implements(valuerType)
}

var valuerType = reflect.TypeFor[node.Valuer]()

// Read returns what x declares, and false if x does not implement
// node.Valuer. x is not changed.
func Read(x any) (Facts, bool) {
	var v node.Values
	if vr, ok := x.(node.Valuer); ok {
		vr.Values(&v)
	} else if Declares(x) {
		p := reflect.New(reflect.TypeOf(x))
		p.Elem().Set(reflect.ValueOf(x))
		p.Interface().(node.Valuer).Values(&v)
	} else {
		return Facts{}, false
	}
	f := Facts{Exact: !v.NotExact}
	for _, p := range v.Clocks {
		f.Clocks = append(f.Clocks, *p)
	}
	for _, p := range v.Stamps {
		f.Stamps = append(f.Stamps, *p)
	}
	for _, p := range v.Indices {
		f.Indices = append(f.Indices, *p)
	}
	for k, p := range v.IDs {
		if *p != 0 {
			f.IDs = append(f.IDs, node.ID{Owner: v.Owners[k], N: *p})
		}
	}
	return f, true
}

// Mapping says how Map rewrites each class of values: a nil function
// leaves its class as it is.
type Mapping struct {
	Clock func(int) int     // the new value of each clock
	Stamp func(int) int     // of each timestamp
	ID    func(node.ID) int // of each identifier (never called for a 0, "none")
	Index func(int) int     // of each node index
	// Dead clears the values declared Unused.
	Dead bool
}

// Map returns a copy of x, a node or a message that implements
// node.Valuer, with its declared values rewritten by mp. x and everything
// it shares with other values are not changed: what the declaration
// points into is copied first (private).
func Map(x any, mp Mapping) any {
	p := reflect.New(reflect.TypeOf(x))
	p.Elem().Set(reflect.ValueOf(x))
	var v node.Values
	valuerOf(p).Values(&v)
	private(p.Elem(), touched(&v))
	v.Reset()
	valuerOf(p).Values(&v)
	apply(&v, mp)
	return p.Elem().Interface()
}

// valuerOf is the node.Valuer of the value p points to: the value itself
// (a node's pointer, or a value with value receivers), else p.
func valuerOf(p reflect.Value) node.Valuer {
	if vr, ok := p.Elem().Interface().(node.Valuer); ok {
		return vr
	}
	return p.Interface().(node.Valuer)
}

// apply rewrites the values v declares by mp.
func apply(v *node.Values, mp Mapping) {
	each := func(ps []*int, f func(int) int) {
		if f == nil {
			return
		}
		for _, p := range ps {
			*p = f(*p)
		}
	}
	each(v.Clocks, mp.Clock)
	each(v.Stamps, mp.Stamp)
	each(v.Indices, mp.Index)
	if mp.ID != nil {
		for k, p := range v.IDs {
			if *p != 0 {
				*p = mp.ID(node.ID{Owner: v.Owners[k], N: *p})
			}
		}
	}
	if mp.Dead {
		for _, d := range v.Dead {
			clearValue(reflect.ValueOf(d).Elem())
		}
	}
}

// clearValue clears d as Go's clear does for a map or a slice (into new
// storage, as the old one may be shared), and zeroes anything else.
func clearValue(d reflect.Value) {
	switch {
	case d.Kind() == reflect.Map && !d.IsNil():
		d.Set(reflect.MakeMap(d.Type()))
	case d.Kind() == reflect.Slice && !d.IsNil():
		d.Set(reflect.MakeSlice(d.Type(), d.Len(), d.Len()))
	default:
		d.SetZero()
	}
}
