package election

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

	"ringlab/engine/amqp/amqptest"
	rcli "ringlab/engine/cli"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// The ring election's wire format: {"type","candidate_id","sender_id","timestamp"}.
func TestRingWireFormat(t *testing.T) {
	spec, err := NodeSpec("ring", nil)
	if err != nil {
		t.Fatal(err)
	}
	codec := trace.NewCodec(spec.Messages...)
	codec.Timestamp = true
	var body string
	_, _ = sim.Runtime{Seed: 1, Messages: true}.Run(t.Context(), spec, func(e *trace.Event) {
		if e.Kind == trace.KindSend && body == "" {
			b, _ := codec.Encode(e.Msg.Value, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
			body = string(b)
		}
	})
	if want := `{"type":"ELECTION","candidate_id":5,"sender_id":5,"timestamp":"2025-01-02T03:04:05Z"}`; body != want {
		t.Errorf("ELECTION on the wire is %s, want %s", body, want)
	}
}

// testPrefix prefixes the broker names of this package's runs: the
// ring's names are fixed, and other packages' tests, or another `go test`
// of this one on the same broker, run rings too.
var testPrefix = fmt.Sprintf("test-election-%d.", os.Getpid())

var summaryMessages = regexp.MustCompile(`(?m)^messages: .*$`)

// The four test cases of the ring election's assignment, over a real
// broker: the right leader, and as many messages of each type as the
// simulator sends for the same ring and initiator.
func TestRingCasesOverRabbitMQ(t *testing.T) {
	url := amqptest.BrokerURL(t)
	t.Setenv(rcli.EnvPrefix, testPrefix) // the ring's names are fixed; other packages' tests use them too
	for _, c := range []struct {
		ids, want string
	}{
		{"5,3,7", "3"}, {"5,3,7,1,4", "1"}, {"5,4,3,2,1", "1"}, {"100,42,7,999,13", "7"},
	} {
		args := []string{"ring", "--ids", c.ids, "--initiators", "1", "--format", "none", "--seed", "1"}
		onSim := runCLI(t, args...)
		onSim.want(t, 0)
		r := runCLI(t, append(args, "--runtime", "amqp", "--url", url)...)
		r.want(t, 0, "on amqp", "✓ termination", "✓ uniqueness", "✓ agreement",
			"✓ correctness: leader should be id "+c.want+" (the smallest id)")
		if got, want := summaryMessages.FindString(r.errb), summaryMessages.FindString(onSim.errb); got != want || got == "" {
			t.Errorf("ring %s: over RabbitMQ %q, on the simulator %q", c.ids, got, want)
		}
	}
	r := runCLI(t, "ring", "--lang", "pt", "--runtime", "amqp", "--url", url)
	r.want(t, 0)
	if want, err := os.ReadFile("testdata/ring_expected_pt.txt"); err != nil || r.out != string(want) {
		t.Errorf("amqp: stdout is not the expected Portuguese output (%v):\n%s", err, r.out)
	}
}

// Every other election, once over the broker, with its verdicts. Bully
// alone depends on time: its reply timeout is 3 ticks, and a reply slower
// than that elects a second leader, which is the synchrony Bully assumes
// failing, not a defect. Its runs take a tick of 500 ms, so a reply would
// have to take 1.5 s through a local broker to be late, a margin a loaded
// machine under the race detector does not eat (a hop takes milliseconds
// there); every verdict then holds whatever the load.
func TestElectionsOverRabbitMQ(t *testing.T) {
	const bullyTick = "500ms"
	url := amqptest.BrokerURL(t)
	t.Setenv(rcli.EnvPrefix, testPrefix)
	for _, args := range everyElection {
		if args[0] == "bully" {
			args = append(slices.Clone(args), "--tick", bullyTick)
		}
		r := runCLI(t, append(args, "--runtime", "amqp", "--url", url, "--format", "none", "--seed", "1")...)
		r.want(t, 0, "on amqp", "✓ termination", "✓ uniqueness", "✓ agreement", "✓ correctness")
	}
	r := runCLI(t, "anonymous", "--initiators", "all", "--runtime", "amqp", "--url", url, "--format", "none", "--seed", "1")
	r.want(t, 3, "✗ uniqueness")
}
