package election

import (
	"testing"

	"ringlab/engine/registrytest"
)

// sweeps are the command lines of each election whose runs, under the
// faults of the sweep, reach every message type it can send.
var sweeps = map[string][][]string{
	"ring":          {{"--initiators", "all"}, {"--initiators", "all", "--fix", "extinction"}},
	"anonymous":     {{"--nodes", "4"}, {"--nodes", "4", "--initiators", "all"}},
	"idlist":        {{"--nodes", "5", "--initiators", "all"}},
	"chang-roberts": {{"--nodes", "6", "--layout", "random", "--initiators", "all"}},
	"franklin":      {{"--nodes", "6", "--layout", "random"}},
	"bully":         {{"--nodes", "5"}, {"--nodes", "5", "--initiators", "5"}},
	"yoyo":          {{"--topology", "grid", "--nodes", "9", "--layout", "random"}},
}

// Every message type an election sends, on any schedule and under drops,
// duplicates, crashes and restarts, is in its registry (Spec.Messages),
// and every registered type is sent by some run; every message sent
// decodes, through the codec built from the registry alone, to a value
// equal to the one sent.
func TestMessageRegistryIsComplete(t *testing.T) {
	registrytest.Sweep(t, names(), sweeps, NodeSpec)
}
