package explore

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"ringlab/engine/node"
)

// stateFieldNames are the names of the field that holds a node's state,
// tried in order (case does not matter).
var stateFieldNames = []string{"state", "status", "phase", "role"}

// showWords are the words Show writes itself, in one table to translate.
var showWords = map[string]string{
	"none": "none", // an empty list, a nil pointer, no state
	"cut":  "…",    // what is nested too deep to show, or only an address
}

// markOfState marks a node by its state's name (lower-cased) when the
// node does not say its mark itself: the chapters' names for a node in
// its critical section and for a leader.
var markOfState = map[string]node.Mark{
	"held":    node.MarkCS,
	"leader":  node.MarkLeader,
	"elected": node.MarkLeader,
}

// Show is how node nd of a run of n nodes shows to a person: what its
// Show method says if it (or the node it wraps) implements node.Shower,
// else its fields read by reflection. An adapter that wraps a node is
// seen through (its Unwrap() node.Node method, or its one field).
//
// By default the field named state (or status, phase, role) is the
// State, and the other fields are shown by name, except those tagged
// `ringlab:"fixed"` (the configuration) and those that hold functions or
// channels; a value whose type has a String
// method is shown by it (an enum by its name); a slice or array of n+1
// values, indexed by node, is shown from index 1; a list is comma
// separated ("none" when empty) and a struct inside is written
// (name=value …). A state named HELD is marked as in the critical
// section, one named LEADER or Elected as a leader. name names node i.
func Show(nd any, n int, name func(i int) string) node.Shown {
	v := reflect.ValueOf(nd)
	for range 8 {
		if v.IsValid() && v.CanInterface() {
			if s, ok := v.Interface().(node.Shower); ok && !(v.Kind() == reflect.Pointer && v.IsNil()) {
				sh := s.Show(name)
				if sh.Mark == node.MarkNone {
					sh.Mark = markOfState[strings.ToLower(sh.State)]
				}
				return sh
			}
			if u, ok := v.Interface().(interface{ Unwrap() node.Node }); ok {
				v = reflect.ValueOf(u.Unwrap()) // an adapter that says what it wraps
				continue
			}
		}
		switch {
		case v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface:
			if v.IsNil() {
				return node.Shown{State: showWords["none"]}
			}
			v = v.Elem()
		case v.Kind() == reflect.Struct && v.NumField() == 1 &&
			(v.Field(0).Kind() == reflect.Pointer || v.Field(0).Kind() == reflect.Interface || v.Field(0).Kind() == reflect.Struct):
			v = v.Field(0)
		default:
			return showFields(v, n)
		}
	}
	return showFields(v, n)
}

// showFields is Show's default: v's fields by name.
func showFields(v reflect.Value, n int) node.Shown {
	var sh node.Shown
	if v.Kind() != reflect.Struct {
		sh.State = valueText(v, n, 0)
	} else {
		stateAt := -1
		for _, want := range stateFieldNames {
			for i := range v.NumField() {
				if strings.EqualFold(v.Type().Field(i).Name, want) {
					stateAt = i
					break
				}
			}
			if stateAt >= 0 {
				break
			}
		}
		for i := range v.NumField() {
			f, sf := v.Field(i), v.Type().Field(i)
			if hidden(f, sf) {
				continue
			}
			if i == stateAt {
				sh.State = valueText(f, n, 0)
				continue
			}
			sh.Fields = append(sh.Fields, node.Field{Name: sf.Name, Value: valueText(f, n, 0)})
		}
	}
	sh.Mark = markOfState[strings.ToLower(sh.State)]
	return sh
}

// hidden reports whether a field is left out of a node's view: the
// configuration, and what only prints as an address.
func hidden(f reflect.Value, sf reflect.StructField) bool {
	k := f.Kind()
	return k == reflect.Func || k == reflect.Chan || k == reflect.UnsafePointer ||
		strings.Contains(sf.Tag.Get("ringlab"), "fixed")
}

// valueText writes one value in words; n is the run's number of nodes.
func valueText(v reflect.Value, n, depth int) string {
	if depth > 6 {
		return showWords["cut"]
	}
	if s, ok := stringer(v); ok {
		return s
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return showWords["none"]
		}
		return valueText(v.Elem(), n, depth+1)
	case reflect.Slice, reflect.Array:
		start := 0
		if v.Len() == n+1 && n > 0 {
			start = 1 // indexed by node: slot 0 is unused
		}
		if v.Len() <= start {
			return showWords["none"]
		}
		parts := make([]string, 0, v.Len()-start)
		for i := start; i < v.Len(); i++ {
			parts = append(parts, valueText(v.Index(i), n, depth+1))
		}
		return strings.Join(parts, ", ")
	case reflect.Map:
		if v.Len() == 0 {
			return showWords["none"]
		}
		var parts []string
		for it := v.MapRange(); it.Next(); {
			parts = append(parts, valueText(it.Key(), n, depth+1)+"→"+valueText(it.Value(), n, depth+1))
		}
		sort.Strings(parts)
		return strings.Join(parts, ", ")
	case reflect.Struct:
		var parts []string
		for i := range v.NumField() {
			if f, sf := v.Field(i), v.Type().Field(i); !hidden(f, sf) {
				parts = append(parts, sf.Name+"="+valueText(f, n, depth+1))
			}
		}
		return "(" + strings.Join(parts, " ") + ")"
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return showWords["cut"]
	case reflect.Bool:
		return fmt.Sprint(v.Bool())
	case reflect.String:
		return v.String()
	}
	return fmt.Sprint(basic(v))
}

// stringer is v's String method's text, also for a value read from an
// unexported field (which reflection does not let call a method): such
// a value of a basic kind is copied into a fresh one of its type.
func stringer(v reflect.Value) (string, bool) {
	if !v.IsValid() {
		return "", false
	}
	if v.CanInterface() {
		if s, ok := v.Interface().(fmt.Stringer); ok && !(v.Kind() == reflect.Pointer && v.IsNil()) {
			return s.String(), true
		}
		return "", false
	}
	if _, ok := reflect.PointerTo(v.Type()).MethodByName("String"); !ok {
		return "", false
	}
	c := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.SetInt(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		c.SetUint(v.Uint())
	case reflect.String:
		c.SetString(v.String())
	case reflect.Bool:
		c.SetBool(v.Bool())
	default:
		return "", false
	}
	if s, ok := c.Interface().(fmt.Stringer); ok {
		return s.String(), true
	}
	return "", false
}

// basic is a number's value, also read from an unexported field.
func basic(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.Complex64, reflect.Complex128:
		return v.Complex()
	}
	return v.Type().String()
}
