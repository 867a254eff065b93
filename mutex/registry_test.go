package mutex

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"ringlab/internal/amqp"
	"ringlab/internal/nodetest"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
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
	seeds := uint64(40)
	if testing.Short() {
		seeds = 10
	}
	for _, name := range Area().Names() {
		argss, ok := sweeps[name]
		if !ok {
			t.Errorf("%s: no sweep proves its message registry complete", name)
			continue
		}
		sent := nodetest.Sent{}
		for _, args := range argss {
			for seed := range seeds {
				spec, err := NodeSpec(name, args)
				if err != nil {
					t.Fatal(err)
				}
				codec := amqp.NewCodec(spec.Messages...)
				cfg := sim.Config{Nodes: spec.Nodes, Factory: spec.Factory, Seed: seed, Workload: spec.Workload,
					Script: append(slices.Clone(spec.Script), nodetest.Faults(seed, spec.Nodes)...),
					Delay:  sim.Delay{Min: 1, Max: 5}, MaxSteps: 5_000, Messages: true,
					Sink: func(e *trace.Event) {
						sent.Observe(e)
						if e.Kind == trace.KindSend {
							wireTrip(t, name, codec, e)
						}
					}}
				if seed%2 == 1 {
					cfg.Policy, cfg.Faults = sim.PolicyRandom, sim.Faults{Drop: 0.05, Dup: 0.05}
				}
				if _, err := sim.Run(cfg); err != nil {
					t.Fatalf("%s %v seed %d: %v", name, args, seed, err)
				}
			}
		}
		spec, _ := NodeSpec(name, argss[0])
		nodetest.CheckRegistry(t, name, spec.Messages, sent)
	}
}

// wireTrip fails t unless e's message, encoded as the broker carries it,
// decodes to an equal value.
func wireTrip(t *testing.T, name string, codec *amqp.Codec, e *trace.Event) {
	t.Helper()
	m := e.Msg.Value
	b, err := codec.Encode(m, time.Unix(0, 0))
	if err != nil {
		t.Fatalf("%s: encoding %#v: %v", name, m, err)
	}
	if got, err := codec.Decode(b); err != nil || !reflect.DeepEqual(got, m) {
		t.Fatalf("%s: %s decodes as %#v (%v), want %#v", name, b, got, err, m)
	}
}
