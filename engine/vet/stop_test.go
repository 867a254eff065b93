package vet_test

import (
	"context"
	"testing"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/vet"
	"ringlab/mutex"
)

// counted wraps a node and counts the Steps of all its clones; the step
// numbered cancelAt cancels the vet's context.
type counted struct {
	node.Snapshot
	n *stepCount
}

type stepCount struct {
	steps, cancelAt int
	cancel          func()
}

func (c *counted) Step(in node.Input, out *node.Output) {
	if c.n.steps++; c.n.steps == c.n.cancelAt {
		c.n.cancel()
	}
	c.Snapshot.Step(in, out)
}

func (c *counted) Clone() node.Node { return &counted{c.Snapshot.Clone().(node.Snapshot), c.n} }

// Unwrap names the wrapped node, whose source the clock check reads.
func (c *counted) Unwrap() node.Node { return c.Snapshot }

// countedVet vets Ricart-Agrawala (3 nodes, 3 requests, up to maxStates
// states), its nodes counted, cancelling at step cancelAt (0: never).
func countedVet(t *testing.T, maxStates int64, cancelAt int) (vet.Report, *stepCount) {
	t.Helper()
	alg, ok := engine.Find(mutex.Algorithms(), "ricart-agrawala")
	if !ok {
		t.Fatal("no ricart-agrawala")
	}
	alg = alg.ForCheck()
	p := alg.Defaults()
	if err := p.Give("nodes", 3); err != nil {
		t.Fatal(err)
	}
	if err := p.Give("requests", 3); err != nil {
		t.Fatal(err)
	}
	sys, err := alg.Build(p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	n := &stepCount{cancelAt: cancelAt, cancel: cancel}
	factory := sys.Factory
	sys.Factory = func(i int) (node.Node, error) {
		nd, err := factory(i)
		if err != nil {
			return nil, err
		}
		return &counted{nd.(node.Snapshot), n}, nil
	}
	r, err := vet.RunSystem(ctx, sys, vet.Options{MaxStates: maxStates})
	if err != nil {
		t.Fatal(err)
	}
	return r, n
}

// maxLate bounds the steps a vet may take after its context is cancelled:
// the search looks at the context every 256 states, the checks every 256
// pairs. Judged in steps, which load cannot change.
const maxLate = 10_000

// TestCancelStopsTheSearchAtOnce: Ctrl-C during vet's search ends it at
// once; the checks then step nothing more (they stepped every pair the
// search had met, 1.4 s on 7 nodes), and the report is interrupted,
// saying which checks did not run.
func TestCancelStopsTheSearchAtOnce(t *testing.T) {
	r, n := countedVet(t, 1_000_000, 120_000)
	t.Logf("%d steps after the cancel", n.steps-n.cancelAt)
	if late := n.steps - n.cancelAt; !r.Interrupted || late > maxLate {
		t.Fatalf("interrupted %v, %d steps after the cancel, want at most %d", r.Interrupted, late, maxLate)
	}
	if len(r.Findings) > 0 {
		t.Errorf("Ricart-Agrawala is clean, yet the interrupted vet found %v", r.Findings)
	}
	skipped := map[string]bool{}
	for _, s := range r.Skipped {
		skipped[s.Check] = true
	}
	for _, c := range []string{vet.CheckDeterminism, vet.CheckClone, vet.CheckKey, vet.CheckCodec} {
		if !skipped[c] {
			t.Errorf("the %s check is not said to be cut short: %+v", c, r.Skipped)
		}
	}
}

// TestCancelStopsTheChecksAtOnce: Ctrl-C after the search, while the
// checks step what it met, stops them too. The cancel comes at fifteen
// sixteenths of the steps an uninterrupted vet takes, after the search
// (which steps a clone beside each step it takes, for the clone check, and
// so is most of the steps; the test checks that the interrupted vet
// searched as many states).
func TestCancelStopsTheChecksAtOnce(t *testing.T) {
	whole, n := countedVet(t, 60_000, 0)
	at := n.steps * 15 / 16
	r, n := countedVet(t, 60_000, at)
	if r.States != whole.States {
		t.Fatalf("the cancel came during the search (%d states, uninterrupted %d): move it later", r.States, whole.States)
	}
	t.Logf("%d steps after the cancel, of %d", n.steps-at, n.steps)
	if late := n.steps - at; !r.Interrupted || late > maxLate {
		t.Fatalf("interrupted %v, %d steps after the cancel (of %d in all), want at most %d", r.Interrupted, late, n.steps, maxLate)
	}
	if len(r.Findings) > 0 {
		t.Errorf("Ricart-Agrawala is clean, yet the interrupted vet found %v", r.Findings)
	}
}
