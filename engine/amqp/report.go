package amqp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	amqp "github.com/rabbitmq/amqp091-go"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

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
	m.restarted = true
	return nil
}

// report sends the node's status (and, in another process than the
// watcher's, the step's events) on.
func (m *member) report(ctx context.Context) {
	// A crashed node counts as done (it takes no part any more, as in the
	// simulator) unless a restart of it is pending: a scripted restart, or
	// the one a restarted node process carries out right after its crash.
	// Until then the run is not over, whatever the other nodes say.
	s := &status{Node: m.i, Sent: clone(m.sent), Recv: clone(m.recv), Done: m.done || m.crashed && !m.restartPending(), Crash: m.crashed,
		Quiet: len(m.timers) == 0 && m.noActions(), Steps: m.steps, ByType: clone(m.byType)}
	evs := m.events
	m.events = nil
	if m.r.cfg.Mixed {
		return // no process watches a mixed run: nobody would read it
	}
	if !m.r.multi || m.r.cfg.Watch {
		m.r.report(ctx, s)
		return
	}
	m.reports++
	b, _ := json.Marshal(reportMsg{Proc: m.r.proc, Seq: m.reports, Status: s, Events: evs})
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

// restartPending reports whether a restart of the node is among its
// pending actions.
func (m *member) restartPending() bool {
	m.actMu.Lock()
	defer m.actMu.Unlock()
	for _, a := range m.acts {
		if a.cmd == node.CmdRestart {
			return true
		}
	}
	return false
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
	e := trace.Event{Kind: trace.NodeKind(ev.Kind), Note: ev.Note}
	switch ev.Kind {
	case node.EvState:
		e.State = ev.State
	case node.EvLeader:
		l := ev.Leader
		e.Leader, e.Round = &l, ev.Round
	}
	m.emit(e)
}

// reportMsg is a report on the control exchange. Proc and Seq identify
// it: a report can reach the watcher twice (published again after a lost
// confirm, or delivered again after a lost ack), and the watcher handles
// each (Proc, Seq) of a node once.
type reportMsg struct {
	Proc   string        `json:"proc"` // the reporting process's id, fresh for every process
	Seq    int64         `json:"seq"`  // the node's reports in that process, from 1
	Status *status       `json:"status"`
	Events []trace.Event `json:"events,omitempty"`
	// Abandon, the Unix ns time it was sent, says the run is abandoned
	// (a second watcher was refused); such a report has no status.
	Abandon int64 `json:"abandon,omitempty"`
}

// reportLog remembers, per node and reporting process, the last report the
// watcher handled. Only the watcher's goroutine uses it.
type reportLog map[int]map[string]int64

// fresh reports whether rep is new, and records it.
func (l reportLog) fresh(rep *reportMsg) bool {
	byProc := l[rep.Status.Node]
	if byProc == nil {
		byProc = map[string]int64{}
		l[rep.Status.Node] = byProc
	}
	if last, ok := byProc[rep.Proc]; ok && rep.Seq <= last {
		return false
	}
	byProc[rep.Proc] = rep.Seq
	return true
}
