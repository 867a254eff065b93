package amqp

import (
	"context"
	"fmt"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

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
	if m.r.cfg.Plain && m.r.cfg.Run == "" && !ringlabs(d.Headers) {
		return m.handlePlain(ctx, d)
	}
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
	return m.step(ctx, node.Input{Kind: node.InMsg, From: int(from), Msg: msg}, d, int(from), seq)
}

// ringlabs reports whether a delivery carries any of ringlab's headers.
func ringlabs(t amqp.Table) bool {
	for _, k := range []string{hFrom, hSeq, hLC, hRun} {
		if _, ok := t[k]; ok {
			return true
		}
	}
	return false
}

// handlePlain takes a message of the specification's wire alone (see
// Runtime.Plain): from the node's predecessor on the ring, with no
// sequence number to drop a duplicate by and no clock to merge.
func (m *member) handlePlain(ctx context.Context, d *amqp.Delivery) error {
	msg, err := m.r.cfg.Codec.Decode(d.Body)
	if err != nil {
		return fmt.Errorf("node %d: a message without ringlab's headers that is not the specification's JSON: %w", m.i, err)
	}
	from := m.i - 1
	if from < 1 {
		from = m.r.cfg.Nodes
	}
	m.lc++
	if m.r.cfg.Messages {
		m.emit(trace.Event{Kind: trace.KindRecv, From: from, To: m.i, Msg: trace.WrapMsg(msg)})
	}
	return m.step(ctx, node.Input{Kind: node.InMsg, From: from, Msg: msg}, d, 0, 0)
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
	out.Now = m.ticks()
	m.nd.Step(in, out)
	var acts []node.Action
	for _, ev := range out.Events {
		m.lc++
		m.emitNode(ev)
		if m.r.cfg.Workload != nil {
			acts = append(acts, m.r.cfg.Workload.React(m.i, ev, out.Now)...)
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
	// in a mixed run, the rules' own end of the last local node ends
	// the process (it has no watcher), once its messages are out
	ends := out.Done && !m.done && m.r.cfg.Mixed && m.r.localDone.Add(1) == int64(len(m.r.cfg.Local))
	if out.Done {
		m.done = true
	}
	if err := m.publish(ctx, pubs); err != nil {
		return err
	}
	if m.r.cfg.afterSends != nil {
		m.r.cfg.afterSends(m.i, from, seq)
	}
	if m.r.keepsState() {
		if err := m.saveState(ctx); err != nil {
			return err
		}
	}
	if d != nil {
		_ = ack(d)
	}
	for _, a := range acts {
		t := timed{due: time.Now().Add(time.Duration(a.At) * m.r.cfg.Tick), cmd: a.Cmd, arg: a.Arg, handed: a.Node != m.i}
		if t.handed {
			m.r.handed.Add(1) // before this step's report: the run cannot look over
		}
		m.r.members[a.Node].enqueue(t)
	}
	m.report(ctx)
	if ends {
		m.r.finish(nil)
	}
	return nil
}

// publish publishes pubs in order and waits for the broker's confirms,
// reopening the channel (reconnecting if the connection is gone) and
// publishing again from the first message not confirmed. A message
// confirmed late may so arrive twice: its receiver drops the second.
func (m *member) publish(ctx context.Context, pubs []outgoing) error {
	for tries := 0; len(pubs) > 0; tries++ {
		if tries == maxTries {
			return fmt.Errorf("node %d: publishing to %q failed %d times in a row: %v", m.i, pubs[0].key, tries, m.why())
		}
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
		if acked > 0 {
			tries = -1 // progress
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

// maxTries bounds the attempts to publish a message on fresh channels
// that each fail without a confirm (a protocol error, not a lost
// connection, which reconnecting repairs or ReconnectWithin bounds).
const maxTries = 5

// why is the reason the node's channel closed, if it has.
func (m *member) why() string {
	if m.ch == nil {
		return "no channel"
	}
	select {
	case e := <-m.closed:
		if e != nil {
			return e.Error()
		}
	default:
	}
	return "the broker did not confirm"
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
