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
		if !r.keepsState() {
			break
		}
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

// bindEnd listens for the end on a queue of this process's own, which
// dies with its connection: an end announced while the process had no
// such queue (between a lost connection and the next bindEnd) went only
// to the end queue, which bindEnd reads after binding (under Names.Lock,
// see endAnnounced), so the end is never missed.
func (r *runner) bindEnd(ctx context.Context) error {
	ch, gen, err := r.sess.channel(ctx, 0, r.endGen())
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
	var over bool
	if err == nil {
		open := func() (*amqp.Channel, error) {
			c, _, err := r.sess.channel(ctx, 0, 0)
			return c, err
		}
		err = underLock(ctx, open, r.cfg.Names, r.cfg.lockWaiting, func(lch *amqp.Channel) error {
			var err error
			over, err = r.endAnnounced(lch)
			return err
		})
	}
	if err != nil {
		_ = ch.Close()
		return fmt.Errorf("listening for the end of the run: %w", err)
	}
	r.endc = &endCh{ch: ch, gen: gen, d: d}
	if over {
		r.finish(nil)
	}
	return nil
}

// endAnnounced reports whether the end queue holds the end of the run
// (left there for every other process). Its callers hold Names.Lock: the
// Get takes the end away from the queue until the Nack gives it back, and
// another process reading at that moment would miss it.
func (r *runner) endAnnounced(ch *amqp.Channel) (bool, error) {
	d, ok, err := ch.Get(r.cfg.Names.End(), false)
	if err != nil || !ok {
		return false, err
	}
	return true, d.Nack(false, true)
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
			if r.over() {
				return
			}
		}
	}
}

// announce tells every other process the run is over, and leaves the end
// in the end queue for a process that is reconnecting; it retries on a
// fresh channel until the broker confirms it (a lost connection
// reconnects, bounded by ReconnectWithin).
func (r *runner) announce(ctx context.Context) error {
	gen := 0
	var last error
	for range maxTries {
		ch, g, err := r.sess.channel(ctx, 0, gen)
		if err != nil {
			return fmt.Errorf("announcing the end: %w", err)
		}
		gen = g
		ok, err := announceOn(ctx, ch, r.cfg.Names.Control())
		_ = ch.Close()
		if ok {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		last = err
	}
	return fmt.Errorf("announcing the end: the broker did not confirm it %d times in a row (%v)", maxTries, last)
}

func announceOn(ctx context.Context, ch *amqp.Channel, exchange string) (bool, error) {
	if err := ch.Confirm(false); err != nil {
		return false, err
	}
	dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, exchange, keyEnd, false, false, amqp.Publishing{Body: []byte("end")})
	if err != nil {
		return false, err
	}
	return dc.WaitContext(ctx)
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
	ch, gen, err := r.sess.channel(ctx, 0, failed)
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
	ch, _, err := r.sess.channel(context.Background(), 0, 0)
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
	seen := reportLog{}
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
		done := r.reports(ctx, w.d, seen)
		_ = w.ch.Close()
		if done {
			return
		}
		w = nil
	}
}

// reports handles reports until the run is over (true) or the channel
// fails (false). A report seen already is dropped: its events must reach
// the checkers once, and an old status must not replace a newer one.
func (r *runner) reports(ctx context.Context, d <-chan amqp.Delivery, seen reportLog) bool {
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
			if !seen.fresh(&rep) {
				_ = m.Ack(false)
				r.dropped(false)
				continue
			}
			for k := range rep.Events {
				r.sink(&rep.Events[k])
			}
			over := r.track.update(rep.Status)
			_ = m.Ack(false)
			if over {
				r.decided(ctx)
				return true
			}
		}
	}
}

// claimRun leaves this run's RunKey in Names.Run if no run is there, or
// checks that the run there is this one; the check and the write happen
// under Names.Lock, so two runs starting at once cannot both claim the
// names.
func (r *runner) claimRun(ctx context.Context) error {
	open := func() (*amqp.Channel, error) {
		ch, _, err := r.sess.channel(ctx, 0, 0)
		return ch, err
	}
	return underLock(ctx, open, r.cfg.Names, nil, func(ch *amqp.Channel) error { return r.claimLocked(ctx, ch) })
}

func (r *runner) claimLocked(ctx context.Context, ch *amqp.Channel) error {
	names := r.cfg.Names
	d, ok, err := ch.Get(names.Run(), false)
	if err != nil {
		return fmt.Errorf("reading %s: %w", names.Run(), err)
	}
	if ok {
		other := string(d.Body)
		_ = d.Nack(false, true) // it stays for the run's other processes
		if other != r.cfg.RunKey {
			return errOtherRun(names, other, r.cfg.RunKey)
		}
		return nil
	}
	// a new run: what the last one left (its end, its nodes' states) is
	// not this run's, as `ringlab amqp setup` would empty it
	open := func() (*amqp.Channel, error) {
		c, _, err := r.sess.channel(ctx, 0, 0)
		return c, err
	}
	if err := purge(ctx, open, names, r.cfg.Nodes, true); err != nil {
		return err
	}
	if err := ch.Confirm(false); err != nil {
		return err
	}
	dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, "", names.Run(), true, false,
		amqp.Publishing{ContentType: "text/plain", Body: []byte(r.cfg.RunKey)})
	if err != nil {
		return fmt.Errorf("claiming the names: %w", err)
	}
	if ok, err := dc.WaitContext(ctx); !ok {
		return fmt.Errorf("claiming the names: the broker did not confirm (%v)", err)
	}
	return nil
}

// releaseRun empties Names.Run at the end of the run: the names are free
// for the next one.
func (r *runner) releaseRun() {
	ch, err := r.sess.tryChannel()
	if err != nil {
		return
	}
	_, _ = ch.QueuePurge(r.cfg.Names.Run(), false)
	_ = ch.Close()
}
