package amqp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"ringlab/internal/node"
	"ringlab/internal/trace"
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
	due time.Time
	cmd node.Cmd
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
func (m *member) open(ctx context.Context, failed int) error {
	ch, gen, err := m.r.sess.channel(ctx, failed)
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
			m.acts = append(m.acts, timed{due: m.r.start.Add(time.Duration(a.At) * m.r.cfg.Tick), cmd: a.Cmd})
		}
	}
}

// loop is the node's goroutine.
func (m *member) loop(ctx context.Context) {
	defer m.closeChannel()
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
		if err := m.act(ctx, a.cmd); err != nil {
			return err
		}
	}
}

func (m *member) act(ctx context.Context, c node.Cmd) error {
	switch {
	case c == node.CmdCrash:
		if m.crashed {
			return nil
		}
		m.crashed, m.timers = true, map[int]time.Time{}
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
		m.nd, m.crashed, m.done = nd, false, false
		if err := m.renew(ctx); err != nil {
			return err
		}
		m.lc++
		m.emit(trace.Event{Kind: trace.KindRecover})
		c = node.CmdRecover
	case m.crashed:
		return nil
	}
	m.lc++
	m.emit(trace.Event{Kind: trace.KindCmd, Cmd: string(c)})
	return m.step(ctx, node.Input{Kind: node.InCmd, Now: m.ticks(), Cmd: c}, nil, 0, 0)
}

func (m *member) fireTimers(ctx context.Context) error {
	now := time.Now()
	for id, due := range m.timers {
		if due.After(now) || m.crashed {
			continue
		}
		delete(m.timers, id)
		if err := m.step(ctx, node.Input{Kind: node.InTick, Now: m.ticks(), Timer: id}, nil, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

func (m *member) ticks() int64 { return int64(time.Since(m.r.start) / m.r.cfg.Tick) }

// Message headers.
const (
	hFrom = "ringlab-from" // sender's node index
	hSeq  = "ringlab-seq"  // the link's sequence number, from 1
	hLC   = "ringlab-lc"   // the sender's Lamport clock at the send
	hRun  = "ringlab-run"  // the run id
)

// handle takes one delivery: drops it if it is a duplicate or of another
// run, else steps the node with it.
func (m *member) handle(ctx context.Context, d *amqp.Delivery) error {
	from, fok := header(d.Headers, hFrom)
	seq, sok := header(d.Headers, hSeq)
	lc, _ := header(d.Headers, hLC)
	run, _ := d.Headers[hRun].(string)
	if !fok || !sok || from < 1 || from > int64(m.r.cfg.Nodes) || (m.r.cfg.Run != "" && run != m.r.cfg.Run) {
		m.r.dropped(true)
		return ack(d)
	}
	if seq <= m.recv[int(from)] {
		m.r.dropped(false) // handled before: a redelivery or a republish
		return ack(d)
	}
	msg, err := m.r.cfg.Codec.Decode(d.Body)
	if err != nil {
		return fmt.Errorf("node %d: from node %d: %w", m.i, from, err)
	}
	m.lc = max(m.lc, lc) + 1
	if m.r.cfg.Messages {
		m.emit(trace.Event{Kind: trace.KindRecv, From: int(from), To: m.i, Msg: trace.WrapMsg(msg)})
	}
	return m.step(ctx, node.Input{Kind: node.InMsg, Now: m.ticks(), From: int(from), Msg: msg}, d, int(from), seq)
}

func ack(d *amqp.Delivery) error {
	_ = d.Ack(false) // a lost ack means a redelivery, which is dropped
	return nil
}

func header(t amqp.Table, k string) (int64, bool) {
	switch v := t[k].(type) {
	case int64:
		return v, true
	case int32:
		return int64(v), true
	case int:
		return int64(v), true
	}
	return 0, false
}

// step runs one input through the node and carries out what it produced:
// events and reactions, timers, then its messages, confirmed by the
// broker, then the acknowledgement of the delivery d (if any) that was
// the input, then the report.
func (m *member) step(ctx context.Context, in node.Input, d *amqp.Delivery, from int, seq int64) error {
	m.steps++
	out := &m.out
	out.Reset()
	m.nd.Step(in, out)
	var acts []node.Action
	for _, ev := range out.Events {
		m.lc++
		m.emitNode(ev)
		if m.r.cfg.React != nil {
			acts = append(acts, m.r.cfg.React(m.i, ev, in.Now)...)
		}
	}
	for _, a := range acts {
		if m.r.members[a.Node] == nil {
			return fmt.Errorf("node %d: a reaction for node %d, which runs in another process", m.i, a.Node)
		}
	}
	for _, t := range out.Timers {
		if t.After < 0 {
			delete(m.timers, t.ID)
		} else {
			m.timers[t.ID] = time.Now().Add(time.Duration(t.After) * m.r.cfg.Tick)
		}
	}
	pubs := make([]outgoing, 0, len(out.Sends))
	for _, s := range out.Sends {
		if s.To < 1 || s.To > m.r.cfg.Nodes {
			return fmt.Errorf("node %d sent %s to node %d, outside 1..%d", m.i, s.Msg.Type(), s.To, m.r.cfg.Nodes)
		}
		m.lc++
		q := m.sent[s.To] + 1
		m.sent[s.To] = q
		m.byType[s.Msg.Type()]++
		m.r.cfg.Codec.Learn(s.Msg)
		now := time.Now()
		body, err := m.r.cfg.Codec.Encode(s.Msg, now)
		if err != nil {
			return fmt.Errorf("node %d: encoding %s: %w", m.i, s.Msg.Type(), err)
		}
		if m.r.cfg.Messages {
			m.emit(trace.Event{Kind: trace.KindSend, From: m.i, To: s.To, Msg: trace.WrapMsg(s.Msg)})
		}
		key := m.r.cfg.Names.Queue(s.To)
		pubs = append(pubs, outgoing{exchange: m.r.cfg.Names.Exchange, key: key, mandatory: true, pub: amqp.Publishing{
			ContentType: "application/json", MessageId: fmt.Sprintf("%d.%d.%d", m.i, s.To, q),
			Type: s.Msg.Type(), Timestamp: now, AppId: "ringlab", Body: body,
			Headers: amqp.Table{hFrom: int64(m.i), hSeq: q, hLC: m.lc, hRun: m.r.cfg.Run},
		}})
	}
	if from > 0 {
		m.recv[from] = seq
	}
	if out.Done {
		m.done = true
	}
	if err := m.publish(ctx, pubs); err != nil {
		return err
	}
	if m.r.cfg.afterSends != nil {
		m.r.cfg.afterSends(m.i, from, seq)
	}
	if m.r.multi {
		if err := m.saveState(ctx); err != nil {
			return err
		}
	}
	if d != nil {
		_ = ack(d)
	}
	for _, a := range acts {
		m.r.members[a.Node].enqueue(timed{due: time.Now().Add(time.Duration(a.At) * m.r.cfg.Tick), cmd: a.Cmd})
	}
	m.report(ctx)
	return nil
}

// publish publishes pubs in order and waits for the broker's confirms,
// reopening the channel (reconnecting if the connection is gone) and
// publishing again from the first message not confirmed. A message
// confirmed late may so arrive twice: its receiver drops the second.
func (m *member) publish(ctx context.Context, pubs []outgoing) error {
	for len(pubs) > 0 {
		if m.ch == nil {
			if err := m.open(ctx, m.gen); err != nil {
				return err
			}
		}
		var dcs []*amqp.DeferredConfirmation
		for _, p := range pubs {
			dc, err := m.ch.PublishWithDeferredConfirmWithContext(ctx, p.exchange, p.key, p.mandatory, false, p.pub)
			if err != nil {
				break
			}
			dcs = append(dcs, dc)
		}
		acked := 0
		for _, dc := range dcs {
			ok, err := dc.WaitContext(ctx)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			acked++
		}
		if err := m.checkReturns(); err != nil {
			return err
		}
		pubs = pubs[acked:]
		if len(pubs) > 0 {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err := m.reopen(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkReturns fails on a message the broker returned: no queue took it.
// A return comes before the confirm of its message, so after the confirms
// every return of theirs is in the channel.
func (m *member) checkReturns() error {
	select {
	case ret, ok := <-m.returns:
		if !ok {
			return nil
		}
		return fmt.Errorf("node %d: the broker returned a %s for %q: %s (was the topology deleted? see `ringlab amqp setup`)",
			m.i, ret.Type, ret.RoutingKey, ret.ReplyText)
	default:
		return nil
	}
}

// state is what a node process keeps in the broker for its restart.
type state struct {
	Sent   map[int]int64    `json:"sent"`
	Recv   map[int]int64    `json:"recv"`
	LC     int64            `json:"lc"`
	Steps  int64            `json:"steps"`
	ByType map[string]int64 `json:"by_type"`
}

func (m *member) saveState(ctx context.Context) error {
	b, _ := json.Marshal(state{Sent: m.sent, Recv: m.recv, LC: m.lc, Steps: m.steps, ByType: m.byType})
	return m.publish(ctx, []outgoing{{key: m.r.cfg.Names.State(m.i), mandatory: true,
		pub: amqp.Publishing{ContentType: "application/json", Body: b}}})
}

// loadState reads the state a previous process of this node left.
func (m *member) loadState() error {
	d, ok, err := m.ch.Get(m.r.cfg.Names.State(m.i), false)
	if err != nil {
		return fmt.Errorf("node %d: reading its state: %w", m.i, err)
	}
	if !ok {
		return nil
	}
	var s state
	err = json.Unmarshal(d.Body, &s)
	_ = d.Nack(false, true) // it stays for the next restart
	if err != nil {
		return fmt.Errorf("node %d: its saved state: %w", m.i, err)
	}
	if s.Sent != nil {
		m.sent = s.Sent
	}
	if s.Recv != nil {
		m.recv = s.Recv
	}
	if s.ByType != nil {
		m.byType = s.ByType
	}
	m.lc, m.steps = s.LC, s.Steps
	return nil
}

// report sends the node's status (and, in another process than the
// watcher's, the step's events) on.
func (m *member) report(ctx context.Context) {
	s := &status{Node: m.i, Sent: clone(m.sent), Recv: clone(m.recv), Done: m.done || m.crashed, Crash: m.crashed,
		Quiet: len(m.timers) == 0 && m.noActions(), Steps: m.steps, ByType: clone(m.byType)}
	evs := m.events
	m.events = nil
	if !m.r.multi || m.r.cfg.Watch {
		m.r.report(s)
		return
	}
	b, _ := json.Marshal(reportMsg{Status: s, Events: evs})
	err := m.publish(ctx, []outgoing{{exchange: m.r.cfg.Names.Control(), key: keyReport, mandatory: true,
		pub: amqp.Publishing{ContentType: "application/json", Body: b}}})
	if err != nil && !errors.Is(err, context.Canceled) {
		m.r.finish(err)
	}
}

func (m *member) noActions() bool {
	m.actMu.Lock()
	defer m.actMu.Unlock()
	return len(m.acts) == 0
}

func clone[K comparable, V any](mp map[K]V) map[K]V {
	c := make(map[K]V, len(mp))
	for k, v := range mp {
		c[k] = v
	}
	return c
}

// emit sends an event of this node to the sink (and keeps it for the
// report in a non-watching process).
func (m *member) emit(e trace.Event) {
	e.V, e.Node, e.LC, e.T = trace.Version, m.i, m.lc, m.r.now()
	if m.r.cfg.Skip.Has(e.Kind) {
		return
	}
	if m.r.multi && !m.r.cfg.Watch {
		m.events = append(m.events, e)
	}
	m.r.sink(&e)
}

func (m *member) emitNode(ev node.Event) {
	e := trace.Event{Note: ev.Note}
	switch ev.Kind {
	case node.EvState:
		e.Kind, e.State = trace.KindState, ev.State
	case node.EvEnterCS:
		e.Kind = trace.KindEnterCS
	case node.EvExitCS:
		e.Kind = trace.KindExitCS
	case node.EvLeader:
		l := ev.Leader
		e.Kind, e.Leader = trace.KindLeader, &l
	default:
		e.Kind = trace.KindNote
	}
	m.emit(e)
}

// reportMsg is a report on the control exchange.
type reportMsg struct {
	Status *status       `json:"status"`
	Events []trace.Event `json:"events,omitempty"`
}
