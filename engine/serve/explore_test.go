package serve

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ringlab/engine/node"
)

// The view cache keeps at most its entries and bytes, dropping the least
// recently used first.
func TestViewCacheStaysWithinItsBounds(t *testing.T) {
	c := newViewCache(3, 100)
	for i := range 5 {
		c.put(fmt.Sprint(i), []byte("0123456789"))
	}
	if c.ll.Len() != 3 || c.bytes != 33 {
		t.Fatalf("%d entries, %d bytes; want 3, 33", c.ll.Len(), c.bytes)
	}
	if _, ok := c.get("1"); ok {
		t.Error("the least recently used entry is still there")
	}
	c.get("2") // used: now the most recent
	c.put("5", []byte("x"))
	if _, ok := c.get("2"); !ok {
		t.Error("a recently used entry was dropped")
	}
	if _, ok := c.get("3"); ok {
		t.Error("the least recently used entry (3) is still there")
	}
	c.put("big", []byte(strings.Repeat("x", 90)))
	if c.bytes > 100 || c.ll.Len() != 1 {
		t.Errorf("after a large view: %d entries, %d bytes (bound 100)", c.ll.Len(), c.bytes)
	}
	c.put("huge", make([]byte, 200))
	if _, ok := c.get("huge"); ok || c.bytes > 100 {
		t.Errorf("a view larger than the whole cache was kept (%d bytes)", c.bytes)
	}
	c.put("big", []byte("y"))
	if b, _ := c.get("big"); string(b) != "y" || c.bytes != 4 {
		t.Errorf("replacing an entry: %q, %d bytes", b, c.bytes)
	}
}

// changed names the fields a step changed, by name.
func TestChanges(t *testing.T) {
	was := []node.Field{{Name: "clock", Value: "1"}, {Name: "queue", Value: "(T=1 ID=2), (T=3 ID=1)"}}
	now := []node.Field{{Name: "clock", Value: "1"}, {Name: "queue", Value: "(T=1 ID=2)"}, {Name: "acks", Value: "0"}}
	if got := changed(was, now); !slices.Equal(got, []string{"queue", "acks"}) {
		t.Errorf("changed: %q, want [queue acks]", got)
	}
}

// A violation's nodes are those its detail names as whole words: P1 is
// not found inside P12, nor "coordinator" inside "coordinators".
func TestNamedNodes(t *testing.T) {
	names := []string{"coordinator", "P1", "P2", "P12"}
	for _, c := range []struct {
		text string
		want []int
	}{
		{"P2 entered with request (1, 2) while P1 waited", []int{2, 3}},
		{"P12 and the coordinator", []int{1, 4}},
		{"P12's coordinators", []int{4}},
		{"nobody", []int{}},
	} {
		if got := named(c.text, names); !slices.Equal(got, c.want) {
			t.Errorf("named(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
