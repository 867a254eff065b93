package amqp

import (
	"context"
	"fmt"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// prefetch bounds the deliveries a node's channel holds unacknowledged.
const prefetch = 64

// member is one node run by this process: its state machine, its
// transport counters and its channel. Only its own goroutine (loop)
// touches it, except the action queue.
type member struct {
	r       *runner
	i       int
	nd      node.Node
	lc      int64
	done    bool
	crashed bool
	sent    map[int]int64 // to -> last seq sent
	recv    map[int]int64 // from -> last seq handled
	byType  map[string]int64
	steps   int64
	timers  map[int]time.Time
	out     node.Output
	events  []trace.Event // this step's, for the report (multi-process)
	reports int64         // reports published by this process
	// restarted: a process of this node ran before in this run (it left
	// its state); this one starts with the node's state reset
	restarted bool

	slot       int // the session's connection its channel is on
	ch         *amqp.Channel
	gen        int
	deliveries <-chan amqp.Delivery
	returns    chan amqp.Return
	closed     chan *amqp.Error // why the channel closed

	actMu sync.Mutex
	acts  []timed // pending actions, in due order of arrival
	wake  chan struct{}
}

type timed struct {
	due    time.Time
	cmd    node.Cmd
	arg    int  // the command's parameter (node.Action.Arg)
	handed bool // another node's reaction handed it over (runner.handed)
}

// outgoing is a message ready to publish.
type outgoing struct {
	exchange, key string
	pub           amqp.Publishing
	mandatory     bool
}

func (r *runner) newMember(i int) (*member, error) {
	nd, err := r.cfg.Factory(i)
	if err != nil {
		return nil, err
	}
	m := &member{r: r, i: i, nd: nd, sent: map[int]int64{}, recv: map[int]int64{},
		byType: map[string]int64{}, timers: map[int]time.Time{}, wake: make(chan struct{}, 1)}
	return m, nil
}

// open opens the node's channel (after a failure of connection
// generation failed, if not 0): confirms on, its queue consumed by this
// process alone.
//
// The broker refuses the consumer while another holds the queue. When
// that one is most likely this node's own, from a connection the broker
// has not yet seen go (this process holds the run's lock, so no other
// process runs the node; or the channel replaces one lost with its
// connection), open tries again after a growing pause, for lockWithin at
// most (config.lockWait in tests), or until ctx is done.
func (m *member) open(ctx context.Context, failed int) error {
	within := m.r.cfg.lockWait
	if within == 0 {
		within = lockWithin
	}
	deadline := time.Now().Add(within)
	wait := 20 * time.Millisecond
	for waited := false; ; waited = true {
		err := m.tryOpen(ctx, failed)
		if !isCode(err, amqp.AccessRefused) || !(m.r.cfg.Lock || failed > 0) || time.Now().Add(wait).After(deadline) {
			return err
		}
		m.closeChannel()
		if !waited && m.r.cfg.lockWaiting != nil {
			m.r.cfg.lockWaiting()
		}
		if err := backOff(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, time.Second)
	}
}

func (m *member) tryOpen(ctx context.Context, failed int) error {
	ch, gen, err := m.r.sess.channel(ctx, m.slot, failed)
	if err != nil {
		return fmt.Errorf("node %d: %w", m.i, err)
	}
	if err := ch.Confirm(false); err != nil {
		return fmt.Errorf("node %d: publisher confirms: %w", m.i, err)
	}
	if err := ch.Qos(prefetch, 0, false); err != nil {
		return fmt.Errorf("node %d: qos: %w", m.i, err)
	}
	m.ch, m.gen = ch, gen
	m.returns = ch.NotifyReturn(make(chan amqp.Return, 16))
	m.closed = ch.NotifyClose(make(chan *amqp.Error, 1))
	m.deliveries = nil
	if !m.crashed {
		q := m.r.cfg.Names.Queue(m.i)
		d, err := ch.Consume(q, "", false, true, false, false, nil)
		if err != nil {
			return fmt.Errorf("node %d: consuming %s: %w (is another process running node %d?)", m.i, q, err, m.i)
		}
		m.deliveries = d
	}
	return nil
}

// reopen replaces a channel that failed.
func (m *member) reopen(ctx context.Context) error {
	var why *amqp.Error
	select {
	case why = <-m.closed:
	default:
	}
	m.closeChannel()
	err := m.open(ctx, m.gen)
	if err != nil && why != nil {
		err = fmt.Errorf("%w (the channel closed: %v)", err, why)
	}
	return err
}

// renew replaces a channel that works (a crash stops consuming, a restart
// consumes again).
func (m *member) renew(ctx context.Context) error {
	m.closeChannel()
	return m.open(ctx, 0)
}

func (m *member) closeChannel() {
	if m.ch != nil {
		_ = m.ch.Close()
		m.ch = nil
	}
}

// schedule takes the node's actions of the script, due from the run's start.
func (m *member) schedule() {
	for _, a := range m.r.cfg.Script {
		if a.Node == m.i {
			m.acts = append(m.acts, timed{due: m.r.start.Add(time.Duration(a.At) * m.r.cfg.Tick), cmd: a.Cmd, arg: a.Arg})
		}
	}
}

// loop is the node's goroutine.
//
// It leaves its channel open when it returns: the run closes the
// connection, which closes every channel at once.
func (m *member) loop(ctx context.Context) {
	// the first report says the node exists (and, restarted, where its
	// counters stand)
	m.report(ctx)
	for {
		if err := m.dueActions(ctx); err != nil {
			m.r.finish(err)
			return
		}
		var tc <-chan time.Time
		var t *time.Timer
		if next, ok := m.next(); ok {
			t = time.NewTimer(time.Until(next))
			tc = t.C
		}
		stop := func() {
			if t != nil {
				t.Stop()
			}
		}
		select {
		case <-ctx.Done():
			stop()
			return
		case d, ok := <-m.deliveries:
			stop()
			if !ok {
				if m.r.over() || ctx.Err() != nil {
					return
				}
				if err := m.reopen(ctx); err != nil {
					m.r.finish(err)
					return
				}
				continue
			}
			if err := m.handle(ctx, &d); err != nil {
				m.r.finish(err)
				return
			}
		case <-m.wake:
			stop()
		case <-tc:
			if err := m.fireTimers(ctx); err != nil {
				m.r.finish(err)
				return
			}
		}
	}
}

// next is the earliest pending timer or action.
func (m *member) next() (time.Time, bool) {
	var t time.Time
	ok := false
	for _, d := range m.timers {
		if !ok || d.Before(t) {
			t, ok = d, true
		}
	}
	m.actMu.Lock()
	for _, a := range m.acts {
		if !ok || a.due.Before(t) {
			t, ok = a.due, true
		}
	}
	m.actMu.Unlock()
	return t, ok
}

// enqueue adds an action for this node (from any goroutine).
func (m *member) enqueue(a timed) {
	m.actMu.Lock()
	m.acts = append(m.acts, a)
	m.actMu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// dueActions carries out the actions that are due.
func (m *member) dueActions(ctx context.Context) error {
	for {
		now := time.Now()
		m.actMu.Lock()
		k := -1
		for j, a := range m.acts {
			if !a.due.After(now) {
				k = j
				break
			}
		}
		var a timed
		if k >= 0 {
			a = m.acts[k]
			m.acts = append(m.acts[:k], m.acts[k+1:]...)
		}
		m.actMu.Unlock()
		if k < 0 {
			return nil
		}
		if err := m.act(ctx, a.cmd, a.arg); err != nil {
			return err
		}
		if a.handed {
			m.r.carriedOut(ctx)
		}
	}
}

func (m *member) act(ctx context.Context, c node.Cmd, arg int) error {
	switch {
	case c == node.CmdCrash:
		if m.crashed {
			return nil
		}
		m.crashed, m.timers = true, map[int]time.Time{}
		if m.r.cfg.Workload != nil {
			m.r.cfg.Workload.Crash(m.i)
		}
		m.lc++
		m.emit(trace.Event{Kind: trace.KindCrash})
		// its queue keeps what comes meanwhile
		if err := m.renew(ctx); err != nil {
			return err
		}
		m.report(ctx)
		return nil
	case c == node.CmdRestart:
		if !m.crashed {
			return nil
		}
		nd, err := m.r.cfg.Factory(m.i)
		if err != nil {
			return err
		}
		if m.done && m.r.cfg.Mixed {
			m.r.localDone.Add(-1)
		}
		m.nd, m.crashed, m.done = nd, false, false
		if m.r.cfg.Workload != nil {
			m.r.cfg.Workload.Restart(m.i)
		}
		if err := m.renew(ctx); err != nil {
			return err
		}
		m.lc++
		m.emit(trace.Event{Kind: trace.KindRecover})
		c, arg = node.CmdRecover, 0
	case m.crashed:
		return nil
	}
	m.lc++
	m.emit(trace.Event{Kind: trace.KindCmd, Cmd: string(c), Arg: arg})
	return m.step(ctx, node.Input{Kind: node.InCmd, Cmd: c, Arg: arg}, nil, 0, 0)
}

func (m *member) fireTimers(ctx context.Context) error {
	now := time.Now()
	for id, due := range m.timers {
		if due.After(now) || m.crashed {
			continue
		}
		delete(m.timers, id)
		if err := m.step(ctx, node.Input{Kind: node.InTick, Timer: id}, nil, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

func (m *member) ticks() int64 { return int64(time.Since(m.r.start) / m.r.cfg.Tick) }
