//go:build hidden

package central_test

import (
	"testing"

	"example.com/ringlab-examples/labs/central/central"
	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/enginetest"
	"ringlab/engine/node"
	"ringlab/mutex/kit"
)

// The teacher's hidden tests: every interleaving, the coordinator's timer
// free to fire at any moment (the asynchronous model: a timeout says
// nothing about the holder). The autograder copies this file next to the
// student's and runs go test -tags hidden.

// TestHiddenNoTimeout: without the timeout and without faults, mutual
// exclusion holds and every request is served (a coordinator and three
// participants asking twice).
func TestHiddenNoTimeout(t *testing.T) {
	enginetest.Exhaust(t, central.Algorithm(), params(t, 4, 2, 0))
}

// TestHiddenDeadHolder: participant 2 dies in the critical section (it
// never leaves it); the others must still be served. The timeout is what
// takes a dead holder's grant back; the search judges progress alone
// (the same timeout breaks mutual exclusion: TestHiddenSlowHolder).
func TestHiddenDeadHolder(t *testing.T) {
	enginetest.ExhaustWith(t, dying(central.Algorithm(), 2), params(t, 4, 1, 30), enginetest.Options{Only: kit.IDNoStarvation})
}

// TestHiddenSlowHolder: the same timeout on a holder that is only slow
// lets a second participant in. The lab's rule: the timeout is kept for
// progress, and this test passes when the search finds the double entry
// (it logs the path); a coordinator that never takes a grant back fails.
func TestHiddenSlowHolder(t *testing.T) {
	enginetest.ExhaustWith(t, central.Algorithm(), params(t, 3, 1, 30), enginetest.Options{Want: check.IDMutualExclusion})
}

// dying is alg whose exhaustive check never lets participant i out of
// the critical section once it is in: the workload's release is never
// given, as if the participant had died inside.
func dying(alg engine.Algorithm, i int) engine.Algorithm {
	a := alg.ForCheck()
	build := a.Build
	a.Build = func(p engine.Params, env engine.Env) (engine.System, error) {
		sys, err := build(p, env)
		sys.Workload = hung{sys.Workload, i}
		return sys, err
	}
	return a
}

// hung is a workload that never answers node's events.
type hung struct {
	engine.Workload
	node int
}

// React answers as the workload does, except node's events.
func (h hung) React(i int, ev node.Event, now int64) []node.Action {
	acts := h.Workload.React(i, ev, now)
	if i == h.node {
		return nil
	}
	return acts
}

// Clone copies the workload under it.
func (h hung) Clone() engine.Workload { return hung{h.Workload.Clone(), h.node} }
