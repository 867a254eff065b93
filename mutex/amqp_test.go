package mutex

import (
	"strings"
	"testing"

	"ringlab/engine/amqp/amqptest"
)

// Every algorithm once over the broker, with its verdicts.
func TestAlgorithmsOverRabbitMQ(t *testing.T) {
	url := amqptest.BrokerURL(t)
	for _, name := range Area().Names() {
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
