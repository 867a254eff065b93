package amqp

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"ringlab/internal/node"
	"ringlab/internal/nodetest"
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
	c := NewCodec(kindMsg{Kind: 1, IDs: []int{9}, Hid: 4}, kindMsg{Kind: 2, Hid: 5}, nodetest.Token{})
	c.Timestamp = true
	for _, m := range []node.Msg{
		kindMsg{Kind: 1, IDs: []int{1, 2, 3}, Hid: 4}, kindMsg{Kind: 1, IDs: []int{9}, Hid: 4},
		kindMsg{Kind: 1, Hid: 4}, kindMsg{Kind: 2, IDs: []int{7}, Hid: 5}, nodetest.Token{Hop: 3},
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

// Whatever arrives on a queue, Decode returns a message of a known type
// or an error, never a panic; what it returns encodes and decodes again
// to itself.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"type":"ASK","kind":"ASK","ids":[1,2]}`, `{"type":"TOKEN","hop":3}`, `{"type":"GIVE"}`,
		`{"type":"TOKEN","hop":"x"}`, `null`, `{"type":1}`, `{"type":"ASK","ids":[1e99]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := NewCodec(kindMsg{Kind: 1, Hid: 4}, kindMsg{Kind: 2}, nodetest.Token{})
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
