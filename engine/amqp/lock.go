package amqp

import (
	"context"
	"fmt"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// lockWithin bounds how long a process waits for a lock queue that a
// process of its own run may still hold. The broker deletes an exclusive
// queue once it has noticed that its connection is gone: at once when a
// killed process's socket closes, but only after a moment when the broker
// is busy, and after two missed heartbeats when a machine or the network
// went away. Meanwhile a node process restarted after a kill, or a
// connection that replaces a lost one, meets the hold of the process (or
// connection) it replaces.
const lockWithin = 3 * heartbeat

// holdNames takes this process's hold on the run's names on c, the first
// connection of its session (again: a connection that replaces a lost
// one).
//
// A one-process run holds Names.Lock and is refused at once (ErrHeld)
// when another run holds it. A node process holds its nodes'
// Names.NodeLock; when one is taken, it is refused at once if the names
// belong to another run (Names.Run holds another RunKey), and else waits
// for it, up to lockWithin: the process of the same node that was killed
// a moment ago may hold it still. A connection that replaces a lost one
// always waits: the hold it meets is most likely its own lost one's.
func (r *runner) holdNames(ctx context.Context, c *amqp.Connection, again bool) error {
	names := r.cfg.Names
	if !r.multi {
		qs := []string{names.Lock()}
		if !again {
			return hold(c, names, qs)
		}
		return r.awaitHold(ctx, c, qs, nil)
	}
	var qs []string
	for _, i := range r.cfg.Local {
		qs = append(qs, names.NodeLock(i))
	}
	return r.awaitHold(ctx, c, qs, func() error { return r.otherRun(ctx, c) })
}

// awaitHold holds the queues qs on c, trying again after a growing pause
// (a bounded back-off on the broker's refusal, not a synchronisation)
// while another connection holds one of them, for lockWithin at most
// (config.lockWait in tests), or until ctx is done. refuse, if set, is
// asked after each refusal: its error ends the wait at once.
func (r *runner) awaitHold(ctx context.Context, c *amqp.Connection, qs []string, refuse func() error) error {
	within := r.cfg.lockWait
	if within == 0 {
		within = lockWithin
	}
	deadline := time.Now().Add(within)
	wait := 20 * time.Millisecond
	for waited := false; ; waited = true {
		taken, err := tryHold(c, qs)
		if err != nil || taken == "" {
			return err
		}
		if refuse != nil {
			if err := refuse(); err != nil {
				return err
			}
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("%w (%s; %s stayed taken for %v): %s", ErrHeld, r.cfg.Names.Exchange, taken, within, heldHint)
		}
		if !waited && r.cfg.lockWaiting != nil {
			r.cfg.lockWaiting()
		}
		if err := backOff(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, time.Second)
	}
}

// otherRun fails with ErrHeld when the names belong to another run than
// this one: Names.Run holds another RunKey (or a one-process run holds
// Names.Lock).
func (r *runner) otherRun(ctx context.Context, c *amqp.Connection) error {
	if r.cfg.RunKey == "" {
		return nil
	}
	other, err := heldBy(ctx, c.Channel, r.cfg.Names)
	if err != nil {
		return err
	}
	if other != "" && other != r.cfg.RunKey {
		return errOtherRun(r.cfg.Names, other, r.cfg.RunKey)
	}
	return nil
}

func errOtherRun(names Names, other, mine string) error {
	return fmt.Errorf("%w (%s): they belong to a run of %s, this process is of %s; wait for that run to end (if it was abandoned, `ringlab amqp setup` frees them)",
		ErrHeld, names.Exchange, other, mine)
}

// heldBy is the RunKey that Names.Run holds ("" if none, or if the
// topology has no such queue yet), read under Names.Lock.
func heldBy(ctx context.Context, open opener, names Names) (string, error) {
	var key string
	err := underLock(ctx, open, names, nil, func(ch *amqp.Channel) error {
		d, ok, err := ch.Get(names.Run(), false)
		if isCode(err, amqp.NotFound) || err == nil && !ok {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", names.Run(), err)
		}
		key = string(d.Body)
		return d.Nack(false, true) // it stays for the run's processes
	})
	return key, err
}

// claimWithin bounds how long a node process waits for Names.Lock, which
// another node process holds for a moment while it claims or reads the
// run, and a one-process run holds for its whole run.
const claimWithin = 3 * time.Second

// underLock runs f on a channel from open while it holds Names.Lock
// (declared exclusive, and deleted after f), so that processes reading
// and writing the run's shared queues (Names.Run, Names.End) never
// interleave: a Get takes a message away from its queue until it is
// acknowledged or given back, and a second reader meanwhile would find
// the queue empty. It waits claimWithin at most for Names.Lock, then fails
// with ErrHeld; waiting, if set, is called once when it starts waiting.
func underLock(ctx context.Context, open opener, names Names, waiting func(), f func(*amqp.Channel) error) error {
	deadline := time.Now().Add(claimWithin)
	wait := 20 * time.Millisecond
	for waited := false; ; waited = true {
		ch, err := open()
		if err != nil {
			return err
		}
		_, err = ch.QueueDeclare(names.Lock(), false, false, true, false, nil)
		if err == nil {
			err = f(ch)
			if ch.IsClosed() { // f's failure closed it: the lock is deleted on another
				if again, oerr := open(); oerr == nil {
					ch = again
				}
			}
			_, _ = ch.QueueDelete(names.Lock(), false, false, false)
			_ = ch.Close()
			return err
		}
		_ = ch.Close()
		if !isCode(err, amqp.ResourceLocked) {
			return fmt.Errorf("declaring queue %s: %w", names.Lock(), err)
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("%w (%s; %s stayed taken for %v): %s", ErrHeld, names.Exchange, names.Lock(), claimWithin, heldHint)
		}
		if !waited && waiting != nil {
			waiting()
		}
		if err := backOff(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}
