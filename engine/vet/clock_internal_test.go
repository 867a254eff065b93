package vet

import (
	"strings"
	"testing"
	"time"

	"ringlab/engine/node"
)

// promoted takes its Step from the node it embeds: no file of its own
// defines it.
type promoted struct{ node.Node }

// A Step whose source cannot be found is a check skipped, and says why;
// a wrapper whose Step is promoted is seen through to the node it wraps.
func TestClockOfSaysWhyItSkipped(t *testing.T) {
	fs, why := clockOf(promoted{})
	if fs != nil || !strings.Contains(why, "no source file is known for vet.promoted's Step") {
		t.Errorf("clockOf(an empty wrapper) = %v, %q; want a skip that says no source is known", fs, why)
	}
	fs, why = clockOf(promoted{Node: &timely{}})
	if why != "" || len(fs) != 1 || fs[0].Method != "time.Since" || !strings.HasPrefix(fs[0].Detail, "clock_internal_test.go:") {
		t.Errorf("clockOf(a wrapped node that reads the clock) = %v, %q; want its time.Since", fs, why)
	}
}

// timely reads the clock through time.Since; clockOf reads this file alone
// for it, which must call no other clock.
type timely struct{}

func (timely) Step(node.Input, *node.Output) { _ = time.Since(time.Time{}) }

// typed holds its node by its concrete type and names it by Unwrap.
type typed[N node.Node] struct{ nd N }

func (w typed[N]) Step(in node.Input, out *node.Output) { w.nd.Step(in, out) }

func (w typed[N]) Unwrap() node.Node { return w.nd }

// A wrapper that names its node by Unwrap is checked in its own methods
// only, and the node it wraps in its source.
func TestClockOfSeesThroughUnwrap(t *testing.T) {
	nd := &timely{}
	if inner, recv := wrapped(typed[*timely]{nd}); inner != node.Node(nd) || recv != "typed" {
		t.Errorf("wrapped(a typed wrapper) = %v, %q; want its node and \"typed\"", inner, recv)
	}
	fs, why := clockOf(typed[*timely]{nd})
	if why != "" || len(fs) != 1 || fs[0].Method != "time.Since" {
		t.Errorf("clockOf(a typed wrapper of a node that reads the clock) = %v, %q; want its time.Since alone", fs, why)
	}
}
