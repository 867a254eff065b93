package trace

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"ringlab/engine/node"
)

// kind is a message kind written by name and not readable back, as some
// algorithms' kinds are.
type kind uint8

func (k kind) MarshalText() ([]byte, error) { return []byte([]string{"", "ASK", "GIVE"}[k]), nil }

type kindMsg struct {
	Kind kind  `json:"kind"`
	IDs  []int `json:"ids,omitempty"`
	Hid  int   `json:"-"`
}

func (m kindMsg) Type() string { return []string{"", "ASK", "GIVE"}[m.Kind] }

func TestCodecRoundTrip(t *testing.T) {
	c := NewCodec(kindMsg{Kind: 1, IDs: []int{9}, Hid: 4}, kindMsg{Kind: 2, Hid: 5}, token{})
	c.Timestamp = true
	for _, m := range []node.Msg{
		kindMsg{Kind: 1, IDs: []int{1, 2, 3}, Hid: 4}, kindMsg{Kind: 1, IDs: []int{9}, Hid: 4},
		kindMsg{Kind: 1, Hid: 4}, kindMsg{Kind: 2, IDs: []int{7}, Hid: 5}, token{Hop: 3},
	} {
		b, err := c.Encode(m, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Decode(b)
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%s decodes as %#v (%v), want %#v", b, got, err, m)
		}
	}
	// a decoded message shares nothing with the prototype
	got, _ := c.Decode([]byte(`{"type":"ASK","kind":"ASK","ids":[5]}`))
	got.(kindMsg).IDs[0] = 6
	again, _ := c.Decode([]byte(`{"type":"ASK","kind":"ASK","ids":[9]}`))
	if again.(kindMsg).IDs[0] != 9 {
		t.Errorf("decoding wrote into the prototype: %v", again)
	}
	for _, bad := range []string{`[]`, `{}`, `{"type":"NOPE"}`, `{"type":"ASK","ids":"x"}`, `{"type":"ASK","kind":"GIVE"}`} {
		if m, err := c.Decode([]byte(bad)); err == nil {
			t.Errorf("%s decodes as %#v", bad, m)
		}
	}
}

// token is a message of a plain struct; wave has no field at all.
type token struct {
	Hop int `json:"hop"`
}

func (token) Type() string { return "TOKEN" }

type wave struct{}

func (wave) Type() string { return "WAVE" }

// otherToken is a TOKEN of another Go type than the registry's.
type otherToken struct{}

func (otherToken) Type() string { return "TOKEN" }

// A type the registry does not list is refused with its name, when it is
// sent as when it arrives; so is a type name listed as another Go type.
func TestCodecRefusesUnregisteredTypes(t *testing.T) {
	c := NewCodec(token{})
	for _, tc := range []struct {
		m    node.Msg
		want string
	}{
		{wave{}, `a message of type "WAVE" (trace.wave), which the algorithm's message registry does not list`},
		{otherToken{}, "a TOKEN message of Go type trace.otherToken, which the algorithm's message registry lists as trace.token"},
	} {
		if b, err := c.Encode(tc.m, time.Unix(0, 0)); err == nil || err.Error() != tc.want {
			t.Errorf("Encode(%#v) = %s, %v; want the error %q", tc.m, b, err, tc.want)
		}
	}
	want := `a message of type "WAVE", which the algorithm's message registry does not list`
	if m, err := c.Decode([]byte(`{"type":"WAVE","from":1}`)); err == nil || err.Error() != want {
		t.Errorf("Decode of a WAVE = %#v, %v; want the error %q", m, err, want)
	}
}

// hiddenMsg has a field the JSON does not show, and a list.
type hiddenMsg struct {
	Kind string `json:"-"`
	ID   int    `json:"id"`
	IDs  []int  `json:"ids"`
}

func (m hiddenMsg) Type() string { return m.Kind }

// A message decoded in one call (a struct encoding/json reads back) is
// the message decoded field by field, whatever the JSON holds.
func TestCodecWholeAndFieldwiseAgree(t *testing.T) {
	registry := []node.Msg{hiddenMsg{Kind: "HID"}, token{}}
	whole, fieldwise := NewCodec(registry...), NewCodec(registry...)
	for typ, p := range fieldwise.protos {
		if !whole.protos[typ].whole {
			t.Fatalf("%s is not decoded in one call", typ)
		}
		p.whole = false
		fieldwise.protos[typ] = p
	}
	for _, b := range []string{`{"type":"HID","id":3,"ids":[1,2]}`, `{"type":"HID","ids":[]}`, `{"type":"HID","ID":4}`,
		`{"type":"HID","id":3,"id":5}`, `{"type":"HID","id":null}`, `{"type":"HID","id":"x"}`, `{"type":"TOKEN","Hop":2,"timestamp":"t"}`,
		`{"type":"TOKEN","hop":1.5}`, `{"type":"HID","kind":"X"}`} {
		m1, err1 := whole.Decode([]byte(b))
		m2, err2 := fieldwise.Decode([]byte(b))
		if !reflect.DeepEqual(m1, m2) || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: in one call %#v (%v), field by field %#v (%v)", b, m1, err1, m2, err2)
		}
	}
}

// Whatever arrives on a queue, Decode returns a message of a known type
// or an error, never a panic; what it returns encodes and decodes again
// to itself.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"type":"ASK","kind":"ASK","ids":[1,2]}`, `{"type":"TOKEN","hop":3}`, `{"type":"GIVE"}`,
		`{"type":"TOKEN","hop":"x"}`, `null`, `{"type":1}`, `{"type":"ASK","ids":[1e99]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := NewCodec(kindMsg{Kind: 1, Hid: 4}, kindMsg{Kind: 2}, token{})
		m, err := c.Decode(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %v", err)
			}
			return
		}
		e, err := c.Encode(m, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		again, err := c.Decode(e)
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("%s -> %#v -> %s -> %#v (%v)", b, m, e, again, err)
		}
	})
}

// FuzzDecodeWholeAndFieldwise: on any bytes, the one-call decode and the
// field-by-field decode agree.
func FuzzDecodeWholeAndFieldwise(f *testing.F) {
	for _, s := range []string{`{"type":"HID","id":3,"ids":[1,2]}`, `{"type":"HID","ID":4,"iDs":[]}`, `{"type":"TOKEN","hop":3}`, `[]`, `{"type":"HID","id":1e3}`} {
		f.Add([]byte(s))
	}
	registry := []node.Msg{hiddenMsg{Kind: "HID"}, token{}}
	f.Fuzz(func(t *testing.T, b []byte) {
		whole, fieldwise := NewCodec(registry...), NewCodec(registry...)
		for typ, p := range fieldwise.protos {
			p.whole = false
			fieldwise.protos[typ] = p
		}
		m1, err1 := whole.Decode(b)
		m2, err2 := fieldwise.Decode(b)
		if !reflect.DeepEqual(m1, m2) || (err1 == nil) != (err2 == nil) {
			t.Fatalf("%s: in one call %#v (%v), field by field %#v (%v)", b, m1, err1, m2, err2)
		}
	})
}
