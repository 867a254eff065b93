package mutex

import (
	"testing"

	"ringlab/engine/registrytest"
)

// sweeps are the command lines of each algorithm whose runs, under the
// faults of the sweep, reach every message type it can send: its
// timeouts on (the fault paths), contention enough for Maekawa's
// INQUIRE, FAILED and RELINQUISH.
var sweeps = map[string][][]string{
	"central":    {{"--nodes", "4", "--requests", "3", "--grant-timeout", "8"}},
	"token-ring": {{"--nodes", "4", "--requests", "3", "--regen-timeout", "20"}},
	"quorum":     {{"--coordinators", "3", "--nodes", "3", "--requests", "3", "--retry-timeout", "20"}},
	"ricart-agrawala": {{"--nodes", "4", "--requests", "3"},
		{"--nodes", "4", "--requests", "3", "--release-broadcast", "--reply-timeout", "30"}},
	"lamport": {{"--nodes", "4", "--requests", "3"}, {"--nodes", "4", "--requests", "3", "--clock", "requests"}},
	"maekawa": {{"--nodes", "9", "--requests", "3"}},
}

// Every message type an algorithm sends, on any schedule and under drops,
// duplicates, crashes and restarts, is in its registry (Spec.Messages),
// and every registered type is sent by some run; every message sent
// decodes, through the codec built from the registry alone, to a value
// equal to the one sent.
func TestMessageRegistryIsComplete(t *testing.T) {
	registrytest.Sweep(t, Area().Names(), sweeps, NodeSpec)
}
