package statespace

import (
	"bytes"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Properties that follow messages and commands (a request's key read from
// its REQUEST as sent, or as the coordinator receives it) are shown those
// events too, in the order a replayed trace gives them: a receipt before
// the receiver's step, a node's sends after its events. A search that
// carries a check.OrderDependent property takes every step that changes
// the environment, or reports a violation, as dependent on every other
// (search.go, expandPre): such a property's state and reports follow the
// order of steps at different nodes, which the sleep sets would otherwise
// take as equivalent.

// hearMsgs shows the properties and the promises that want kind
// (trace.KindSend, trace.KindRecv or trace.KindDrop) the messages sends,
// sent by from (a receipt or a loss: the one message to node at); it
// returns the first violation reported and adds the promises kept to
// m.kept. The step is visible if that changed the environment. The
// environment is copied only once an event concerns a property
// (check.Filter) or a promise.
func (m *machine) hearMsgs(c *state, kind string, at, from int, sends []node.Send) *Violation {
	orig := m.envAt(c.env)
	var w *env
	var viol *Violation
	te := &m.hte
	for _, sd := range sends {
		m.hmsg = trace.Msg{Value: sd.Msg}
		*te = trace.Event{V: trace.Version, T: m.now, Node: at, Kind: kind, From: from, To: sd.To, Msg: &m.hmsg}
		if w == nil {
			if !orig.concerns(te) {
				continue
			}
			m.kb = orig.appendKey(m.kb[:0])
			w = orig.cloneFor(kind)
		}
		if v := w.observe(te, m.cfg.Only); v != nil && viol == nil {
			viol = v
		}
		m.kept |= w.keep(te)
	}
	if w == nil {
		return nil
	}
	m.settleEnv(c, w, viol)
	return viol
}

// concerns reports whether te concerns a property of e that wants its
// kind (one that is not a check.Filter, or one whose Concerns says so),
// or a promise that wants it.
func (e *env) concerns(te *trace.Event) bool {
	if slices.ContainsFunc(e.pwants, func(k trace.Kinds) bool { return k.Has(te.Kind) }) {
		return true
	}
	for k, p := range e.props {
		if !e.wants[k].Has(te.Kind) {
			continue
		}
		if f, ok := p.(check.Filter); !ok || f.Concerns(te) {
			return true
		}
	}
	return false
}

// ordered reports whether the environment of the states carries a
// check.OrderDependent property.
func (m *machine) ordered() bool {
	return m.in.env0 != 0 && m.envAt(m.in.env0).ordered
}

// stampsOfEnv appends the timestamps the check.Stamped properties of the
// environment env hold.
func (m *machine) stampsOfEnv(env uint32, ts []int) []int {
	if env == 0 {
		return ts
	}
	for _, p := range m.envAt(env).props {
		if sp, ok := p.(check.Stamped); ok {
			ts = sp.AppendStamps(ts)
		}
	}
	return ts
}

// renameEnvStamps returns the number of the environment env, which holds
// some, with the timestamps of its check.Stamped properties renamed (the
// clock shift, the low timestamps' renumbering).
func (m *machine) renameEnvStamps(env uint32, rename func(int) int) uint32 {
	e := m.envAt(env).clone()
	for k, p := range e.props {
		if sp, ok := p.(check.Stamped); ok {
			e.props[k] = sp.RenameStamps(rename)
		}
	}
	return m.internEnv(e, nil)
}

// worded is viol, found at the last step of path, in the words a replay of
// path through fresh properties gives it (inWords).
func (s *searcher) worded(path []Trans, viol *Violation) (*Violation, error) {
	set := check.NewSet(s.cfg.Checks()...)
	if _, err := replay(s.cfg, s.m.in, path, func(e *trace.Event) { set.Observe(e) }); err != nil {
		return viol, err
	}
	if n := len(set.Violations); n > 0 && check.ID(set.Violations[n-1].Property) == viol.Property {
		return &Violation{Property: viol.Property, Detail: set.Violations[n-1].Detail}, nil
	}
	return inWords(set, viol), nil
}

// inWords is viol in the words of set, the properties a path was replayed
// through: the first violation of that property they report (viol itself
// if none, or set is nil). A search's states share an environment between
// paths, so the words an environment's property reports may name the
// values (times, numbers) of another path to the state.
func inWords(set *check.Set, viol *Violation) *Violation {
	if set == nil {
		return viol
	}
	for _, e := range set.Violations {
		if check.ID(e.Property) == viol.Property {
			return &Violation{Property: viol.Property, Detail: e.Detail}
		}
	}
	return viol
}

// loopKey is s's key with the environment's check.OrderDependent
// properties left out: a lasso found by a search that left them out
// (Config.Only) comes back to its state without them.
func loopKey(s *state, in *interner) []byte {
	c := *s
	c.env = 0
	b := c.appendKey(nil, in)
	if s.env == 0 {
		return b
	}
	return in.envAt(s.env).appendKeyOf(b, false)
}

// orderChanged reports whether the check.OrderDependent properties of the
// environments a and b have different keys (a step from a state with a
// to one with b changed them). A shifted successor's may differ by the
// shift alone: that is taken as a change, which costs reduction, not
// soundness.
func (m *machine) orderChanged(a, b uint32) bool {
	if a == b {
		return false
	}
	if a == 0 || b == 0 {
		return true
	}
	m.oka, m.okb = m.envAt(a).appendOrderKey(m.oka[:0]), m.envAt(b).appendOrderKey(m.okb[:0])
	return !bytes.Equal(m.oka, m.okb)
}

// appendOrderKey appends the keys of e's check.OrderDependent properties.
func (e *env) appendOrderKey(b []byte) []byte {
	for _, p := range e.props {
		if _, ok := p.(check.OrderDependent); ok {
			b = p.AppendKey(b)
		}
	}
	return b
}

// atEnds lists cfg's properties that are judged only where a path ends
// (Result.AtEnds), of those a search for cfg.Only looks at, but
// termination, whose verdict is the terminal state itself, and the
// check.Counter properties, which never fail.
func atEnds(cfg Config) []check.ID {
	if cfg.Checks == nil {
		return nil
	}
	var ids []check.ID
	for _, p := range cfg.Checks() {
		_, counts := p.(check.Counter)
		if _, ok := p.(check.Snapshot); ok || counts || p.ID() == check.IDTermination || cfg.Only != "" && p.ID() != cfg.Only || slices.Contains(ids, p.ID()) {
			continue
		}
		ids = append(ids, p.ID())
	}
	return ids
}
