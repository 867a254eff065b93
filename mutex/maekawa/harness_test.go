package maekawa

import (
	"math/rand/v2"
	"testing"

	"ringlab/engine/node"
	"ringlab/mutex/internal/mutextest"
)

// harness is the area's shared test network (mutextest.Net) over this
// package's nodes, named by index ("N4").
type harness = mutextest.Net[*Node]

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	return mutextest.Build[*Node](t, Factory, cfg, cfg.N, mutextest.Options{})
}

// runRandom: every node requests `quota` times, a `burst` of them at once at
// the start; holders release whenever the driver picks them; a random link
// delivers its oldest message. It returns false on a deadlock: nothing in
// flight, nobody in the CS, somebody still WANTED.
func runRandom(h *harness, rng *rand.Rand, quota, burst int) bool {
	n := len(h.Nodes) - 1
	left := mutextest.Quota(n, quota)
	for _, i := range rng.Perm(n)[:min(burst, n)] {
		left[i+1]--
		h.Cmd(i+1, node.CmdRequest)
	}
	h.RunRandom(rng, left, true)
	for i := 1; i <= n; i++ {
		if h.Nodes[i].state != StateReleased {
			return false
		}
	}
	return true
}
