package sim

import (
	"reflect"
	"testing"

	"ringlab/engine/trace"
)

// TestFillResetsEveryField guards fill, which resets the reused event field
// by field: a field added to trace.Event must be reset there too, or it
// would leak from one event into the next.
func TestFillResetsEveryField(t *testing.T) {
	s := &sim{q: newQueue(1, nil), nodes: make([]nodeState, 3)}
	s.nodes[2].lc = 7
	v := reflect.ValueOf(&s.ev).Elem()
	for k := 0; k < v.NumField(); k++ { // a non-zero value in every field
		f := v.Field(k)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(99)
		case reflect.String:
			f.SetString("stale")
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", v.Type().Field(k).Name, f.Kind())
		}
	}
	s.evSeq = 4
	s.fill(trace.KindState, 2)
	want := trace.Event{V: trace.Version, Seq: 5, T: 0, Node: 2, Kind: trace.KindState, LC: 7}
	if !reflect.DeepEqual(s.ev, want) {
		t.Fatalf("fill left %+v, want %+v", s.ev, want)
	}
}
