// Package registrytest proves an area's message registries complete: it
// runs each algorithm on the simulator under many seeds, with timeouts,
// crashes, restarts, drops, duplicates and random delivery order, and
// fails unless the types sent and the types registered are the same, and
// every message sent survives the broker's encoding.
package registrytest

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"ringlab/engine"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// Sweep runs, for each algorithm of names, the command lines sweeps gives
// it (build makes the System of one), seeds times each, and checks its
// registry against what the runs sent. An algorithm without a sweep fails.
func Sweep(t *testing.T, names []string, sweeps map[string][][]string, build func(name string, args []string) (engine.System, error)) {
	t.Helper()
	seeds := uint64(40)
	if testing.Short() {
		seeds = 10
	}
	for _, name := range names {
		argss, ok := sweeps[name]
		if !ok {
			t.Errorf("%s: no sweep proves its message registry complete", name)
			continue
		}
		sent := nodetest.Sent{}
		for _, args := range argss {
			for seed := range seeds {
				sys, err := build(name, args)
				if err != nil {
					t.Fatal(err)
				}
				run(t, name, args, seed, sys, sent)
			}
		}
		sys, _ := build(name, argss[0])
		nodetest.CheckRegistry(t, name, sys.Messages, sent)
	}
}

// run is one run of the sweep: odd seeds deliver in random order and drop
// and duplicate messages.
func run(t *testing.T, name string, args []string, seed uint64, sys engine.System, sent nodetest.Sent) {
	t.Helper()
	codec := trace.NewCodec(sys.Messages...)
	codec.Timestamp = sys.WireTimestamp
	rt := sim.Runtime{Seed: seed, Delay: sim.Delay{Min: 1, Max: 5}, MaxSteps: 5_000, Messages: true}
	if seed%2 == 1 {
		rt.Policy, rt.Faults = sim.PolicyRandom, sim.Faults{Drop: 0.05, Dup: 0.05}
	}
	sys.Script = append(slices.Clone(sys.Script), nodetest.Faults(seed, sys.Nodes)...)
	if _, err := rt.Run(t.Context(), sys, func(e *trace.Event) {
		sent.Observe(e)
		if e.Kind == trace.KindSend {
			wireTrip(t, name, codec, e)
		}
	}); err != nil {
		t.Fatalf("%s %v seed %d: %v", name, args, seed, err)
	}
}

// wireTrip fails t unless e's message, encoded as the broker carries it,
// decodes to an equal value.
func wireTrip(t *testing.T, name string, codec *trace.Codec, e *trace.Event) {
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
