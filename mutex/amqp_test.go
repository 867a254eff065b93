package mutex

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"ringlab/internal/amqp"
	"ringlab/internal/amqp/amqptest"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// Every message every algorithm sends survives the broker's JSON.
func TestMessagesSurviveTheWire(t *testing.T) {
	for _, name := range Algorithms() {
		spec, err := NodeSpec(name, []string{"--requests", "2"})
		if err != nil {
			t.Fatal(err)
		}
		codec := amqp.NewCodec()
		types := map[string]bool{}
		_, err = sim.Run(sim.Config{Nodes: spec.Nodes, Factory: spec.Factory, Seed: 1, Script: spec.Script,
			React: spec.React, Messages: true, Sink: func(e *trace.Event) {
				if e.Kind != trace.KindSend {
					return
				}
				m := e.Msg.Value
				types[m.Type()] = true
				codec.Learn(m)
				b, err := codec.Encode(m, time.Now())
				if err != nil {
					t.Fatalf("%s: encoding %#v: %v", name, m, err)
				}
				got, err := codec.Decode(b)
				if err != nil || !reflect.DeepEqual(got, m) {
					t.Fatalf("%s: %s decodes as %#v (%v), want %#v", name, b, got, err, m)
				}
			}})
		if err != nil || len(types) == 0 {
			t.Fatalf("%s: %v, types %v", name, err, types)
		}
	}
}

// Every algorithm once over the broker, with its verdicts.
func TestAlgorithmsOverRabbitMQ(t *testing.T) {
	url := amqptest.BrokerURL(t)
	for _, name := range Algorithms() {
		out, errb, code := runCLI(t, name, "--requests", "2", "--runtime", "amqp", "--url", url, "--format", "none")
		all := out + errb
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", name, code, all)
		}
		for _, want := range []string{"on amqp", "✓ mutual exclusion", "✓ no deadlock", "✓ no starvation"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: output lacks %q:\n%s", name, want, all)
			}
		}
		if strings.Contains(all, "✗") {
			t.Errorf("%s: a verdict failed:\n%s", name, all)
		}
	}
}
