package amqp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// recoverStates gives each local node the transport counters a previous
// process of it saved (a restarted node process continues its links'
// sequence numbers, so nothing it sent or handled counts twice), and, in
// a process that does not watch, binds the queue the end arrives on
// before any report can let the watcher decide.
func (r *runner) recoverStates(ctx context.Context) error {
	for _, i := range r.cfg.Local {
		if err := r.members[i].loadState(); err != nil {
			return err
		}
	}
	if r.cfg.Watch {
		return nil
	}
	return r.bindEnd(ctx)
}

// endCh is the channel and consumer of the end announcement (non-watching
// processes).
type endCh struct {
	ch  *amqp.Channel
	gen int
	d   <-chan amqp.Delivery
}

func (r *runner) bindEnd(ctx context.Context) error {
	ch, gen, err := r.sess.channel(ctx, r.endGen())
	if err != nil {
		return err
	}
	q, err := ch.QueueDeclare("", false, true, true, false, nil)
	if err == nil {
		err = ch.QueueBind(q.Name, keyEnd, r.cfg.Names.Control(), false, nil)
	}
	var d <-chan amqp.Delivery
	if err == nil {
		d, err = ch.Consume(q.Name, "", true, true, false, false, nil)
	}
	if err != nil {
		_ = ch.Close()
		return fmt.Errorf("listening for the end of the run: %w", err)
	}
	r.endc = &endCh{ch: ch, gen: gen, d: d}
	return nil
}

func (r *runner) endGen() int {
	if r.endc == nil {
		return 0
	}
	return r.endc.gen
}

// awaitEnd ends a non-watching process's run when the watcher announces
// the end.
func (r *runner) awaitEnd(ctx context.Context) {
	defer func() { _ = r.endc.ch.Close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-r.endc.d:
			if ok {
				if string(m.Body) == bodyAbandon {
					r.finish(ErrAbandoned)
				} else {
					r.finish(nil)
				}
				return
			}
			if ctx.Err() != nil || r.over() {
				return
			}
			_ = r.endc.ch.Close()
			if err := r.bindEnd(ctx); err != nil {
				r.finish(err)
				return
			}
		}
	}
}

// announce tells every other process the run is over.
func (r *runner) announce() error {
	ch, _, err := r.sess.channel(context.Background(), 0)
	if err != nil {
		return err
	}
	defer ch.Close()
	if err := ch.Confirm(false); err != nil {
		return err
	}
	dc, err := ch.PublishWithDeferredConfirm(r.cfg.Names.Control(), keyEnd, false, false, amqp.Publishing{Body: []byte("end")})
	if err != nil {
		return fmt.Errorf("announcing the end: %w", err)
	}
	dc.Wait()
	return nil
}

// ErrSecondWatcher is Run's error in a process that was to watch a run
// that another process watches already (a run has one watcher). The
// process leaves before any of its nodes has acted, and tells the run's
// other processes, which end with ErrAbandoned.
var ErrSecondWatcher = errors.New("another process watches this run already")

// ErrAbandoned ends the processes of a run that a second watcher was
// started for: the run cannot go on without the refused process's nodes.
var ErrAbandoned = errors.New("the run was abandoned: a second process was started to watch it")

// bodyAbandon is the end announcement of an abandoned run.
const bodyAbandon = "abandon"

// watcher is the watching process's consumer of the monitor queue.
type watcher struct {
	ch      *amqp.Channel
	gen     int
	d       <-chan amqp.Delivery
	claimed time.Time
}

// claimWatch consumes the monitor queue exclusively, before any local
// node acts, so that a second watcher is refused having sent nothing: it
// then announces the run abandoned and returns ErrSecondWatcher.
func (r *runner) claimWatch(ctx context.Context) error {
	w, err := r.consumeMonitor(ctx, 0)
	var ae *amqp.Error
	if errors.As(err, &ae) && ae.Code == amqp.AccessRefused {
		r.abandon()
		return ErrSecondWatcher
	}
	if err != nil {
		return err
	}
	w.claimed = time.Now()
	r.watchc = w
	return nil
}

func (r *runner) consumeMonitor(ctx context.Context, failed int) (*watcher, error) {
	ch, gen, err := r.sess.channel(ctx, failed)
	if err != nil {
		return nil, err
	}
	d, err := ch.Consume(r.cfg.Names.Monitor(), "", false, true, false, false, nil)
	if err != nil {
		_ = ch.Close()
		return nil, fmt.Errorf("reading the reports on %s: %w", r.cfg.Names.Monitor(), err)
	}
	return &watcher{ch: ch, gen: gen, d: d}, nil
}

// abandon tells the watcher (through the monitor queue) and the other
// node processes (through the end announcement) that the run is
// abandoned. It is best effort: the process that calls it is failing.
func (r *runner) abandon() {
	ch, _, err := r.sess.channel(context.Background(), 0)
	if err != nil {
		return
	}
	defer ch.Close()
	if ch.Confirm(false) != nil {
		return
	}
	b, _ := json.Marshal(reportMsg{Abandon: time.Now().UnixNano()})
	for _, p := range []struct {
		key  string
		body []byte
	}{{keyReport, b}, {keyEnd, []byte(bodyAbandon)}} {
		if dc, err := ch.PublishWithDeferredConfirm(r.cfg.Names.Control(), p.key, false, false, amqp.Publishing{Body: p.body}); err == nil {
			dc.Wait()
		}
	}
}

// staleAbandon is how much older than the watcher's claim an abandon
// report may be and still be this run's: the processes' clocks may differ
// a little; an older one was left by a run that had ended.
const staleAbandon = 5 * time.Second

// watch reads the other processes' reports: their events go to the sink,
// their statuses to the tracker, which decides the end.
func (r *runner) watch(ctx context.Context) {
	w := r.watchc
	for {
		if w == nil {
			var err error
			if w, err = r.consumeMonitor(ctx, r.watchc.gen); err != nil {
				if ctx.Err() == nil {
					r.finish(err)
				}
				return
			}
			w.claimed = r.watchc.claimed
			r.watchc = w
		}
		done := r.reports(ctx, w.d)
		_ = w.ch.Close()
		if done {
			return
		}
		w = nil
	}
}

// reports handles reports until the run is over (true) or the channel
// fails (false).
func (r *runner) reports(ctx context.Context, d <-chan amqp.Delivery) bool {
	for {
		select {
		case <-ctx.Done():
			return true
		case m, ok := <-d:
			if !ok {
				return ctx.Err() != nil || r.over()
			}
			var rep reportMsg
			err := json.Unmarshal(m.Body, &rep)
			if err == nil && rep.Abandon != 0 {
				_ = m.Ack(false)
				if rep.Abandon >= r.watchc.claimed.Add(-staleAbandon).UnixNano() {
					r.finish(ErrAbandoned)
					return true
				}
				continue
			}
			if err != nil || rep.Status == nil ||
				rep.Status.Node < 1 || rep.Status.Node > r.cfg.Nodes {
				_ = m.Ack(false)
				r.dropped(true)
				continue
			}
			if r.members[rep.Status.Node] != nil { // a stale report of this process's own node
				_ = m.Ack(false)
				continue
			}
			for k := range rep.Events {
				r.sink(&rep.Events[k])
			}
			over := r.track.update(rep.Status)
			_ = m.Ack(false)
			if over {
				r.decided()
				return true
			}
		}
	}
}
