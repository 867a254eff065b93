package amqp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"ringlab/engine/internal/nodetest"
)

// Another program declared the run's names as the ring specification
// does (no arguments): a one-process run uses its queues and leaves them.
// While the program consumes one, a run is refused with ErrInUse before
// it empties anything; a queue it declared durable refuses the run with
// ErrSettings. Neither refusal speaks of another run, and neither deletes
// the program's queues.
func TestOneProcessRunBesideAnotherProgramsQueues(t *testing.T) {
	url := brokerURL(t)
	names, id := testNames(t)
	t.Cleanup(func() {
		if _, err := Teardown(context.Background(), url, names, 2); err != nil {
			t.Error(err)
		}
	})
	conn, err := dial(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.ExchangeDeclare(names.Exchange, "direct", false, false, false, false, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{names.Queue(1), names.Queue(2)} {
		if _, err := ch.QueueDeclare(q, false, false, false, false, nil); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config{Codec: testCodec(), URL: url, Names: names, Run: id, Nodes: 2, Factory: nodetest.PassFactory(2, 3), Script: start1(),
		Purge: true, Teardown: true, Lock: true, Timeout: time.Minute}
	if res, err := run(t.Context(), cfg); err != nil || !res.Quiescent {
		t.Fatalf("a run on another program's queues: %v, quiescent %v", err, res.Quiescent)
	}
	if n := queuesLeft(t, url, names, 2); n != 2 {
		t.Fatalf("the run left %d of the program's 2 queues", n)
	}
	if _, err := ch.Consume(names.Queue(2), "", false, false, false, false, nil); err != nil {
		t.Fatal(err)
	}
	refused := func(want error, what string) {
		t.Helper()
		_, err := run(t.Context(), cfg)
		if !errors.Is(err, want) || strings.Contains(err.Error(), "another run") || !strings.Contains(err.Error(), names.Queue(2)) {
			t.Errorf("a run while %s: %v, want %v naming %s", what, err, want, names.Queue(2))
		}
		if n := queuesLeft(t, url, names, 2); n != 2 {
			t.Errorf("the refused run left %d of the program's 2 queues", n)
		}
	}
	refused(ErrInUse, "the program consumes node 2's queue")
	if _, err := ch.QueueDelete(names.Queue(2), false, false, false); err != nil {
		t.Fatal(err)
	}
	if _, err := ch.QueueDeclare(names.Queue(2), true, false, false, false, amqp.Table{}); err != nil {
		t.Fatal(err)
	}
	refused(ErrSettings, "node 2's queue is durable")
}
