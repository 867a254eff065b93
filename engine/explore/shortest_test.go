package explore

import (
	"context"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
)

// In the two-sender collector where node 3's hello must not come first,
// the nearest violation from the start takes four steps, both starts and
// node 3's hello delivered first (the verdict is given where the run
// ends); the search takes the enabled steps in order, so c2 comes first. From c2,
// d2-1 none is reachable; from c2,c3 the way is d3-1 then d2-1.
func TestShortestWayToAViolation(t *testing.T) {
	cfg := collectors(2)
	cfg.Checks = func() []check.Property { return []check.Property{&twoFirst{}} }
	x, err := NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, want string
		found      bool
	}{
		{"", "c2,c3,d3-1,d2-1", true},
		{"c2,c3", "d3-1,d2-1", true},
		{"c2,d2-1", "", false},
		{"c2,c3,d3-1,d2-1", "", true}, // already violated
	} {
		p, err := statespace.ParsePath(c.from, 3)
		if err != nil {
			t.Fatal(err)
		}
		steps, found, err := x.Shortest(context.Background(), p, 0)
		if err != nil {
			t.Fatal(err)
		}
		if found != c.found || statespace.FormatPath(steps) != c.want {
			t.Errorf("from %q: %q (found %v), want %q (found %v)", c.from, statespace.FormatPath(steps), found, c.want, c.found)
		}
		if found && len(steps) > 0 {
			v, err := x.At(append(p, steps...))
			if err != nil {
				t.Fatal(err)
			}
			if v.Violation == nil {
				t.Errorf("from %q, %s reaches no violation", c.from, statespace.FormatPath(steps))
			}
		}
	}
	p, _ := statespace.ParsePath("", 3)
	if _, _, err := x.Shortest(context.Background(), p, 2); err == nil {
		t.Error("a limit of 2 states did not stop the search")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := x.Shortest(ctx, p, 0); err == nil {
		t.Error("a cancelled context did not stop the search")
	}
}

// View.Keys has the key of every state along the path, the same as At
// gives each prefix.
func TestViewKeysFollowThePath(t *testing.T) {
	x, err := NewExplorer(collectors(2), nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := statespace.ParsePath("c2,c3,d3-1", 3)
	v, err := x.At(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Keys) != len(p)+1 || v.Keys[len(p)] != v.Key {
		t.Fatalf("keys %v for a path of %d ending at %x", v.Keys, len(p), v.Key)
	}
	for k := range p {
		u, err := x.At(p[:k])
		if err != nil {
			t.Fatal(err)
		}
		if u.Key != v.Keys[k] {
			t.Errorf("key %d: %x, the prefix's state is %x", k, v.Keys[k], u.Key)
		}
	}
	if x.Interned() == 0 {
		t.Error("an Explorer that has stepped reports nothing interned")
	}
}
