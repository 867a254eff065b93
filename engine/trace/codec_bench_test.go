package trace

// go test -run '^$' -bench BenchmarkDecode -count 5 ./engine/trace | tee new.txt
// (benchstat old.txt new.txt compares two builds.)

import (
	"testing"
	"time"

	"ringlab/engine/node"
)

// stamp is a message of the shape most algorithms send: a kind by name
// that reads back, and two numbers.
type stamp struct {
	Kind string `json:"kind"`
	T    int    `json:"t"`
	ID   int    `json:"id"`
}

func (m stamp) Type() string { return m.Kind }

// BenchmarkDecode measures decoding one message through a registry, as
// a node process does for every delivery and `check --from` for every
// logged message: a plain struct, and one whose kind is written by name
// and not readable back (decoded field by field).
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct {
		name string
		m    node.Msg
	}{
		{"msg=plain", stamp{Kind: "REQUEST", T: 12, ID: 3}},
		{"msg=kind-by-name", kindMsg{Kind: 1, IDs: []int{4, 5}}},
		{"msg=token", token{Hop: 7}},
	} {
		b.Run(c.name, func(b *testing.B) {
			codec := NewCodec(stamp{Kind: "REQUEST"}, kindMsg{Kind: 1}, token{})
			body, err := codec.Encode(c.m, time.Unix(0, 0))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := codec.Decode(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
