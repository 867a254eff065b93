package statespace

import (
	"fmt"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// env is the environment of the nodes as part of a state: the workload,
// which answers a node's events with commands for that node, and the
// properties judged at every step (the check.Snapshot ones of
// Config.Checks). Its key is the workload's key followed by each
// property's. States share env objects through the interner; an env is
// never changed once interned: a step changes a clone.
type env struct {
	// envShape is who is shown what: fixed once the initial env is built,
	// and shared by every env of a search, so a clone does not copy it.
	*envShape
	work  engine.Workload // nil: none
	props []check.Snapshot
	// own holds props when they are few: a clone is then one allocation
	// for the env and its property list, not two.
	own [2]check.Snapshot
	// proms are the promises of the check.Eventually properties, carried
	// only by a search that judges liveness (Config.Liveness). Promise k's
	// bits are bits k*n.. of a mask.
	proms []check.Promise
	// mon is the goal's monitor (engine.Goal.Monitor); nil: none.
	mon engine.Monitor
}

// envShape is the part of an env that no step changes.
type envShape struct {
	wants []trace.Kinds // by property: the kinds it is shown
	// hears is the kinds of node events anyone here is shown: the
	// properties' and the workload's (a workload that is a check.Wanter
	// says which kinds it answers; React returns nothing for the others).
	// A step whose events are all of other kinds leaves the env as it is.
	hears  trace.Kinds
	pwants []trace.Kinds // by promise: the kinds it is shown
	mwants trace.Kinds   // the kinds the goal's monitor is shown
	n      int
	// extra is the kinds beyond node events and faults that a property
	// is shown (history.go): commands, sends, receipts, losses.
	extra trace.Kinds
	// ordered says a property is a check.OrderDependent one.
	ordered bool
}

// newEnv is the initial environment: a clone of the workload w (nil:
// none) and the Snapshot properties among cs, and with live the promises
// of the check.Eventually ones, for n nodes. It is nil when it has none of
// them. A search for the violations of one property only (only) leaves
// out the check.OrderDependent properties it does not name: their states
// would split the states for nothing.
func newEnv(w engine.Workload, cs []check.Property, live bool, n int, only check.ID) *env {
	e := &env{envShape: &envShape{n: n}}
	if w != nil {
		e.work = w.Clone()
		e.hears = trace.AllKinds
		if wt, ok := w.(check.Wanter); ok {
			e.hears = wt.Wants()
		}
	}
	for _, c := range cs {
		p, ok := c.(check.Snapshot)
		if !ok {
			continue
		}
		if _, ord := c.(check.OrderDependent); ord && only != "" && c.ID() != only {
			continue
		}
		k := trace.AllKinds
		if wt, ok := c.(check.Wanter); ok {
			k = wt.Wants()
		}
		e.props, e.wants = append(e.props, p), append(e.wants, k)
		e.hears |= k
		e.extra |= k & trace.KindsOf(trace.KindCmd, trace.KindSend, trace.KindRecv, trace.KindDrop)
		if _, ok := c.(check.OrderDependent); ok {
			e.ordered = true
		}
	}
	for _, c := range cs {
		if ev, ok := c.(check.Eventually); ok && live {
			p := ev.Promise()
			e.proms, e.pwants = append(e.proms, p), append(e.pwants, p.Wants())
			e.hears |= p.Wants()
			e.extra |= p.Wants() & trace.KindsOf(trace.KindSend, trace.KindRecv, trace.KindDrop)
		}
	}
	if e.work == nil && len(e.props) == 0 && len(e.proms) == 0 {
		return nil
	}
	return e
}

// clone is an independent copy of e.
func (e *env) clone() *env { return e.cloneShown(trace.AllKinds) }

// cloneShown is a copy of e in which the properties, the promises and the
// monitor shown none of kinds are e's own, shared: only events of kinds
// may change the copy. The workload is always copied.
func (e *env) cloneShown(kinds trace.Kinds) *env {
	c := &env{envShape: e.envShape, mon: e.mon}
	if e.mon != nil && e.mwants&kinds != 0 {
		c.mon = e.mon.Clone()
	}
	if len(e.proms) > 0 {
		c.proms = make([]check.Promise, len(e.proms))
		for k, p := range e.proms {
			if e.pwants[k]&kinds != 0 {
				p = p.Clone()
			}
			c.proms[k] = p
		}
	}
	if len(e.props) <= len(c.own) {
		c.props = c.own[:len(e.props)]
	} else {
		c.props = make([]check.Snapshot, len(e.props))
	}
	if e.work != nil {
		c.work = e.work.Clone()
	}
	for k, p := range e.props {
		if e.wants[k]&kinds != 0 {
			p = p.Clone()
		}
		c.props[k] = p
	}
	return c
}

// shown is the kinds of the node events evs (trace.NodeKind).
func shown(evs []node.Event) trace.Kinds {
	var k trace.Kinds
	for _, ev := range evs {
		k |= trace.KindsOf(trace.NodeKind(ev.Kind))
	}
	return k
}

// cloneFor is a copy of e in which only the properties and the promises
// shown events of kind are cloned: the workload, the others and the
// monitor are e's own, shared. Only their Observe of events of kind may
// change the copy (hearMsgs); any other change needs clone.
func (e *env) cloneFor(kind string) *env {
	c := *e
	if len(e.props) <= len(c.own) {
		c.props = c.own[:len(e.props)]
	} else {
		c.props = make([]check.Snapshot, len(e.props))
	}
	for k, p := range e.props {
		if e.wants[k].Has(kind) {
			p = p.Clone()
		}
		c.props[k] = p
	}
	if slices.ContainsFunc(e.pwants, func(k trace.Kinds) bool { return k.Has(kind) }) {
		c.proms = slices.Clone(e.proms)
		for k, p := range c.proms {
			if e.pwants[k].Has(kind) {
				c.proms[k] = p.Clone()
			}
		}
	}
	return &c
}

// hearsAny reports whether anyone in e is shown one of evs.
func (e *env) hearsAny(evs []node.Event) bool {
	for _, ev := range evs {
		if e.hears.HasNode(ev.Kind) {
			return true
		}
	}
	return false
}

func (e *env) appendKey(b []byte) []byte { return e.appendKeyOf(b, true) }

// appendKeyOf is appendKey, with the check.OrderDependent properties left
// out unless withOrder.
func (e *env) appendKeyOf(b []byte, withOrder bool) []byte {
	if e.work != nil {
		b = e.work.AppendKey(b)
	}
	for _, p := range e.props {
		if !withOrder {
			if _, ord := p.(check.OrderDependent); ord {
				continue
			}
		}
		b = p.AppendKey(b)
	}
	for _, p := range e.proms {
		b = p.AppendKey(b)
	}
	if e.mon != nil {
		b = e.mon.AppendKey(b)
	}
	return b
}

// keep shows te to every promise that wants its kind and returns the
// promises it keeps, promise k's shifted to bits k*n...
func (e *env) keep(te *trace.Event) uint64 {
	var kept uint64
	for k, p := range e.proms {
		if e.pwants[k].Has(te.Kind) {
			kept |= p.Observe(te) << (k * e.n)
		}
	}
	return kept
}

// owed is the mask of the promises owed, promise k's at bits k*n...
func (e *env) owed() uint64 {
	var o uint64
	for k, p := range e.proms {
		o |= p.Owed() << (k * e.n)
	}
	return o
}

// hearsCmd reports whether a property, a promise or the goal's monitor
// is shown the commands a node is given.
func (e *env) hearsCmd() bool {
	if e.extra.Has(trace.KindCmd) || e.mon != nil && e.mwants.Has(trace.KindCmd) {
		return true
	}
	for _, k := range e.pwants {
		if k.Has(trace.KindCmd) {
			return true
		}
	}
	return false
}

// observe shows te to every property that wants its kind and returns the
// violation it reports: the first of property only, if only is not "" and
// one is of it, else the first.
func (e *env) observe(te *trace.Event, only check.ID) *Violation {
	var v *Violation
	for k, p := range e.props {
		if !e.wants[k].Has(te.Kind) {
			continue
		}
		d := p.Observe(te)
		if d == "" {
			continue
		}
		if v == nil || only != "" && v.Property != only && p.ID() == only {
			v = &Violation{Property: p.ID(), Detail: d}
		}
	}
	return v
}

// event gives node i's event ev, at virtual time now, to the workload and
// the properties: the actions the workload answers with, all for node i (a
// workload that answers for another node breaks the independence of steps
// at two nodes, and is an error), and the violation reported.
func (e *env) event(i int, ev node.Event, now int64, te *trace.Event, only check.ID) ([]node.Action, *Violation, error) {
	var acts []node.Action
	if e.work != nil {
		acts = e.work.React(i, ev, now)
		for _, a := range acts {
			if a.Node != i {
				return nil, nil, fmt.Errorf("statespace: the workload answered node %d's %s with %s for node %d: it may only answer for the node itself", i, trace.NodeKind(ev.Kind), a.Cmd, a.Node)
			}
		}
	}
	e.monitor(te)
	if len(e.props) == 0 {
		return acts, nil, nil
	}
	return acts, e.observe(te, only), nil
}

// fault tells the environment that node i crashed (kind trace.KindCrash)
// or came back with amnesia (trace.KindRecover); it returns the violation
// reported and the promises kept.
func (e *env) fault(i int, kind string, now int64, only check.ID) (*Violation, uint64) {
	if e.work != nil {
		if kind == trace.KindCrash {
			e.work.Crash(i)
		} else {
			e.work.Restart(i)
		}
	}
	te := trace.Event{V: trace.Version, T: now, Node: i, Kind: kind}
	e.monitor(&te)
	return e.observe(&te, only), e.keep(&te)
}

// monitor shows te to the goal's monitor, if it wants its kind.
func (e *env) monitor(te *trace.Event) {
	if e.mon != nil && e.mwants.Has(te.Kind) {
		e.mon.Observe(te)
	}
}

// withMonitor is e (nil: a new environment for n nodes) with a fresh
// monitor of goal g, when g has one.
func withMonitor(e *env, g *engine.Goal, n int) *env {
	if g == nil || g.Monitor == nil {
		return e
	}
	if e == nil {
		e = &env{envShape: &envShape{n: n}}
	}
	e.mon = g.Monitor()
	e.mwants = e.mon.Wants()
	e.hears |= e.mwants
	return e
}
