package serve

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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

// Fields splits a node's printed state at its top level, and changed
// names the fields a step changed.
func TestFieldsAndChanges(t *testing.T) {
	was := Fields("{state:WANTED clock:1 queue:[{T:1 ID:2} {T:3 ID:1}] f:map[a:1 b:2]}")
	want := []string{"state:WANTED", "clock:1", "queue:[{T:1 ID:2} {T:3 ID:1}]", "f:map[a:1 b:2]"}
	if !slices.Equal(was, want) {
		t.Fatalf("Fields: %q, want %q", was, want)
	}
	now := Fields("{state:HELD clock:1 queue:[{T:1 ID:2}] f:map[a:1 b:2]}")
	if got := changed(was, now); !slices.Equal(got, []string{"state", "queue"}) {
		t.Errorf("changed: %q", got)
	}
	if got := Fields("42"); !slices.Equal(got, []string{"42"}) {
		t.Errorf("a value that is no struct: %q", got)
	}
	if got := Fields("{}"); len(got) != 0 {
		t.Errorf("an empty struct: %q", got)
	}
}

func FuzzFields(f *testing.F) {
	f.Add("{state:WANTED clock:1 queue:[{T:1 ID:2} {T:3 ID:1}]}")
	f.Add("{a:{b:} c:]")
	f.Fuzz(func(t *testing.T, s string) {
		for _, fd := range Fields(s) {
			if fd == "" || !strings.Contains(s, fd) {
				t.Errorf("Fields(%q) gave %q", s, fd)
			}
		}
	})
}
