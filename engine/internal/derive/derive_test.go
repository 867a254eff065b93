package derive

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"ringlab/engine/node"
)

// counter is a plain node: Step alone.
type counter struct {
	n    int
	seen []int
}

func (c *counter) Step(in node.Input, _ *node.Output) { c.n++; c.seen = append(c.seen, in.From) }

// handMade is a node with its own Clone and AppendKey, whose key says
// "hand" whatever the state.
type handMade struct{ counter }

func (h *handMade) Clone() node.Node          { c := *h; return &c }
func (h *handMade) AppendKey(b []byte) []byte { return append(b, "hand"...) }

// hooked holds a func.
type hooked struct {
	counter
	onStep func()
}

func TestOpsTakesTheFastPathUnlessDerived(t *testing.T) {
	h := &handMade{counter{n: 1}}
	if k := (Ops{}).AppendKey(nil, h); string(k) != "hand" {
		t.Errorf("the zero Ops keyed a Snapshot %q, want its own key", k)
	}
	if k := (Ops{Derived: true}).AppendKey(nil, h); string(k) == "hand" || !bytes.Contains(k, []byte("handMade")) {
		t.Errorf("Derived keyed a Snapshot %q, want its derived key", k)
	}
}

func TestDerivedCopyAndKey(t *testing.T) {
	a := &counter{n: 1, seen: []int{2}}
	b := (Ops{}).Clone(a).(*counter)
	b.Step(node.Input{From: 3}, &node.Output{})
	if a.n != 1 || len(a.seen) != 1 {
		t.Errorf("stepping the copy changed the original: %+v", a)
	}
	if bytes.Equal(AppendKey(nil, a), AppendKey(nil, b)) {
		t.Errorf("two different states have one key")
	}
	if c := Clone(a); !bytes.Equal(AppendKey(nil, a), AppendKey(nil, c)) {
		t.Errorf("a copy has another key than its original")
	}
}

func TestCheckRefusesAFuncNamingIt(t *testing.T) {
	err := (Ops{}).Check(&hooked{})
	var de *Error
	if !errors.As(err, &de) || de.ExitCode() != 1 ||
		!strings.Contains(err.Error(), "the state of *derive.hooked cannot be copied or compared: derive.hooked.onStep: func values cannot be copied or compared") {
		t.Errorf("Check: %v", err)
	}
	if err := (Ops{}).Check(&counter{}); err != nil {
		t.Errorf("Check refused a plain node: %v", err)
	}
}
