package election

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// relayBody has the size and shape of the ring election's ELECTION on
// the wire (TestRingWireFormat).
var relayBody = []byte(`{"type":"ELECTION","candidate_id":300,"sender_id":299,"timestamp":"2026-01-02T03:04:05.123456789Z"}`)

// relay is the floor of a hop over the broker: a bare amqp091-go program,
// no ringlab package, that passes one message around n queues for hops
// hops (a direct exchange, queue i bound by its own name, one consumer a
// queue, each on a channel of its own, on one connection). Each consumer
// publishes what it got to the next queue, then acknowledges it: no
// message is lost if the consumer stops before. With confirm, it also
// waits for the broker's confirm of that publish before the
// acknowledgement, as ringlab does (its no-loss guarantee if the
// connection drops: without the confirm, a publish that never reached
// the broker is lost with the acknowledged input). It returns the time
// from the first publish to the last delivery.
func relay(ctx context.Context, url, prefix string, n, hops int, confirm bool) (time.Duration, error) {
	conn, err := amqp.Dial(url)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	exchange := prefix + "relay"
	queue := func(i int) string { return fmt.Sprintf("%srelay.%d", prefix, i%n) }
	setup, err := conn.Channel()
	if err != nil {
		return 0, err
	}
	if err := setup.ExchangeDeclare(exchange, "direct", false, true, false, false, nil); err != nil {
		return 0, err
	}
	chans := make([]*amqp.Channel, n)
	ins := make([]<-chan amqp.Delivery, n)
	for i := range n {
		if _, err := setup.QueueDeclare(queue(i), false, true, true, false, nil); err != nil {
			return 0, err
		}
		if err := setup.QueueBind(queue(i), queue(i), exchange, false, nil); err != nil {
			return 0, err
		}
		if chans[i], err = conn.Channel(); err != nil {
			return 0, err
		}
		if confirm {
			if err := chans[i].Confirm(false); err != nil {
				return 0, err
			}
		}
		if ins[i], err = chans[i].Consume(queue(i), "", false, true, false, false, nil); err != nil {
			return 0, err
		}
	}
	// left: the hops still to make, in a header
	send := func(ch *amqp.Channel, to, left int) error {
		dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, exchange, queue(to), true, false, amqp.Publishing{
			ContentType: "application/json", Body: relayBody, Headers: amqp.Table{"left": int64(left)}})
		if err != nil || !confirm {
			return err
		}
		if ok, err := dc.WaitContext(ctx); !ok || err != nil {
			return fmt.Errorf("relay: no confirm (%v)", err)
		}
		return nil
	}
	done, errs := make(chan struct{}), make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for d := range ins[i] {
				left, _ := d.Headers["left"].(int64)
				if left == 0 {
					close(done)
					return
				}
				if err := send(chans[i], i+1, int(left)-1); err != nil {
					errs <- err
					return
				}
				_ = d.Ack(false)
			}
		})
	}
	start := time.Now()
	if err := send(chans[n-1], 0, hops-1); err != nil {
		return 0, err
	}
	select {
	case <-done:
	case err = <-errs:
	case <-ctx.Done():
		err = ctx.Err()
	}
	elapsed := time.Since(start)
	conn.Close() // ends every consumer
	wg.Wait()
	return elapsed, err
}

// relayTime is the bare relay's time for the ring election's message
// count (3n-1 hops) in ns.
func relayTime(b *testing.B, url string, n int, confirm bool) int64 {
	ctx, cancel := context.WithTimeout(b.Context(), 2*time.Minute) // a lost message fails, not hangs
	defer cancel()
	d, err := relay(ctx, url, "bench-election.", n, 3*n-1, confirm)
	if err != nil {
		b.Fatal(err)
	}
	return d.Nanoseconds()
}
