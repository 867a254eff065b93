package amqp

import (
	"testing"
	"time"

	"ringlab/engine/internal/nodetest"
)

// Processes that look for the end in the end queue at the same moment
// (several that reconnect at once) each find it: a Get takes the end out
// of the queue until it is given back, so the readers take turns, under
// Names.Lock. Here the test reads the end as another process would, and
// gives it back only once a late process waits for its turn; the late
// process then finds the end and ends.
func TestEndQueueReadersTakeTurns(t *testing.T) {
	f := nodetest.PassFactory(2, 3)
	cfg := multiConfig(t, 2, f)
	p1 := startProc(t.Context(), cfg, 1, true)
	p2 := startProc(t.Context(), cfg, 2, false)
	for _, p := range []*proc{p1, p2} {
		p.wait()
		if p.err != nil || !p.res.Quiescent {
			t.Fatalf("a process ended with %v, quiescent %v", p.err, p.res.Quiescent)
		}
	}
	c, err := dial(t.Context(), cfg.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ch, err := c.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ch.QueueDeclare(cfg.Names.Lock(), false, false, true, false, nil); err != nil {
		t.Fatal(err)
	}
	d, ok, err := ch.Get(cfg.Names.End(), false)
	if err != nil || !ok {
		t.Fatalf("the end queue: %v, holds the end %v", err, ok)
	}
	giveBack, back := signal()
	late := cfg
	late.Timeout = 30 * time.Second // a bound on a hang: without its turn, the late process would wait for an end that never comes
	late.lockWaiting = func() {
		_ = d.Nack(false, true)
		_, _ = ch.QueueDelete(cfg.Names.Lock(), false, false, false)
		back()
	}
	p := startProc(t.Context(), late, 2, false)
	p.wait()
	select {
	case <-giveBack:
	default:
		t.Error("the late process read the end queue without waiting for its turn")
	}
	if p.err != nil || !p.res.Quiescent || p.res.Exhausted {
		t.Fatalf("the late process ended with %v, quiescent %v, exhausted %v", p.err, p.res.Quiescent, p.res.Exhausted)
	}
}
