package statespace

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/internal/canon"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// machine steps states: the configuration and what one search shares.
type machine struct {
	cfg Config
	n   int
	in  *interner
	out node.Output
	// sink, when set, receives the trace events of every step (replay).
	sink func(*trace.Event)
	ev   trace.Event
	lc   []int64 // Lamport clocks, for the trace only
	// lcs is, when a path is replayed, the sender's Lamport clock of each
	// message in flight, parallel to the state's net (trace only).
	lcs []int64
	now int64
	// broken is a broken contract a step met where it could not return
	// an error (takeBroken returns it): "" if none.
	broken string
	seq    int64
	// vis says whether the last step was visible: it changed the
	// environment (the workload's and the properties' state), reported a
	// violation, or was a fault. The ample-set reduction takes invisible
	// steps only.
	vis bool
	// kept is the promises the last step kept (Config.Liveness), as
	// env.keep numbers them.
	kept   uint64
	kb, ka []byte // scratch: the environment's key before and after a step
	oka    []byte // scratch: orderChanged's keys (history.go)
	okb    []byte
	nkb    []byte      // scratch: a node state's key, for the interner
	loc    *local      // a worker's view of the shared interner (local.go), else nil
	te     trace.Event // scratch: the event the properties are shown
	leader int         // scratch: te.Leader points here
	into   []uint64    // scratch of ampleSets: by node, the senders with a message on their link to it
	// hte and hmsg are the scratch event (and its message) of hearMsgs
	// and hearCmd: valid during a property's Observe, as te.
	hte  trace.Event
	hmsg trace.Msg
	// ownNet says the state the current step builds has its own copy of
	// net (not its parent's): carryOut inserts the sends in place.
	ownNet bool
	// room is where the current step may build its successor's net
	// (length 0; nil: none), allocated with the successor (slotarena.go).
	room []item
	// arena, when set, holds the states the machine builds (slotarena.go).
	arena *arena
	// shifting says whether a search's successors are reduced (shift,
	// reducing.go); red holds what the reductions computed.
	shifting bool
	red      *reducing
	// staged is the first violation on the path of Config.From, if any.
	staged *Violation
}

// isComparable says whether messages like m may be looked up by value:
// their == says "same value" (canon.EqualIsSame).
func isComparable(m node.Msg) bool { return canon.EqualIsSame(reflect.TypeOf(m)) }

// enabled appends the transitions enabled in s, in a fixed order. A
// terminal state has none: every live node is done (or nothing is left)
// and no message is in flight, where the simulator ends a run.
func (m *machine) enabled(s *state, ts []Trans) []Trans {
	n := m.n
	if m.terminal(s) {
		return ts
	}
	timersOK := m.cfg.Timers == TimersAny || len(s.net) == 0
	for k, p := range s.pend {
		i := int(p.node)
		switch {
		case !s.alive(i):
		case p.kind == pendCmd && (k == 0 || s.pend[k-1].node != p.node):
			ts = append(ts, Trans{Kind: Command, Node: int16(i)})
		case p.kind == pendTimer && timersOK:
			ts = append(ts, Trans{Kind: Fire, Node: int16(i), Timer: p.val})
		}
	}
	// Deliveries, link by link (the net is sorted by link).
	for lo := 0; lo < len(s.net); {
		l := s.net[lo].link
		hi := lo + 1
		for hi < len(s.net) && s.net[hi].link == l {
			hi++
		}
		from, to := int(l)/n+1, int(l)%n+1
		if s.alive(to) || int(s.restarts) < m.cfg.Restarts {
			for k := lo; k < hi; k++ {
				if m.cfg.Policy == sim.PolicyFIFO && k > lo {
					break
				}
				if k > lo && s.net[k].id == s.net[k-1].id {
					continue // the same message again: the same successor
				}
				t := Trans{Kind: Deliver, Node: int16(to), From: int16(from), K: int16(k - lo), Msg: s.net[k].id}
				ts = append(ts, t)
				if int(s.drops) < m.cfg.Drops {
					t.Kind = Drop
					ts = append(ts, t)
				}
			}
		}
		lo = hi
	}
	for i := 1; i <= n; i++ {
		switch {
		case s.alive(i) && int(s.crashes) < m.cfg.Crashes:
			ts = append(ts, Trans{Kind: Crash, Node: int16(i)})
		case !s.alive(i) && int(s.restarts) < m.cfg.Restarts:
			ts = append(ts, Trans{Kind: Restart, Node: int16(i)})
		}
	}
	return ts
}

// terminal reports whether the run is over in s: no message in flight, no
// command left to give, and every live node done or no timer pending.
func (m *machine) terminal(s *state) bool {
	if len(s.net) > 0 {
		return false
	}
	timers := false
	for _, p := range s.pend {
		if s.alive(int(p.node)) {
			if p.kind == pendCmd {
				return false
			}
			timers = true
		}
	}
	live := (uint64(1)<<m.n - 1) &^ s.crashed
	return !timers || s.done&live == live
}

// within reports whether every node's state in s meets Config.Within,
// and every link holds at most Config.MaxFlight messages.
func (m *machine) within(s *state) bool {
	for _, id := range s.nodes {
		if !m.isWithin(id) {
			return false
		}
	}
	return m.cfg.MaxFlight <= 0 || flightWithin(s.net, m.cfg.MaxFlight)
}

// find returns the transition of s that a parsed label names, with its
// message filled in, or false.
func (m *machine) find(s *state, t Trans) (Trans, bool) {
	for _, u := range m.enabled(s, nil) {
		if u.Kind == t.Kind && u.Node == t.Node && u.From == t.From && u.K == t.K && (t.Kind != Fire || u.Timer == t.Timer) {
			return u, true
		}
	}
	return t, false
}

// Violation is a property broken in a state.
type Violation struct {
	Property check.ID // the property broken
	Detail   string   // what broke it, in words
}

// step returns the successor of s by t (enabled in s) and the safety
// violation the environment's properties report on the way, if any.
func (m *machine) step(s *state, t Trans) (*state, *Violation, error) {
	var c *state
	var room []item
	if m.arena != nil {
		c, room = m.arena.successor(s)
	} else {
		c = s.shallow()
	}
	m.room, m.ownNet = room, false
	next, viol, err := m.stepTo(c, t)
	if next != nil {
		// what shares next's messages copies them before changing them
		next.net = next.net[:len(next.net):len(next.net)]
	}
	m.room = nil
	return next, viol, err
}

// stepTo makes c, a shallow copy of a state, its successor by t (step).
func (m *machine) stepTo(c *state, t Trans) (*state, *Violation, error) {
	i := int(t.Node)
	m.now++
	m.vis = t.Kind > Command
	m.kept = 0
	var viol *Violation
	switch t.Kind {
	case Deliver, Drop:
		l := uint32((int(t.From)-1)*m.n + i - 1)
		at, _ := slices.BinarySearchFunc(c.net, l, func(it item, l uint32) int { return cmp.Compare(it.link, l) })
		at += int(t.K)
		it := c.net[at]
		// c's own copy, with room for the sends of the receiver's step
		net := m.room
		if len(c.net) > cap(net) {
			net = make([]item, 0, len(c.net)+1)
		}
		c.net = append(append(net, c.net[:at]...), c.net[at+1:]...)
		m.ownNet = true
		var itLC int64
		if m.sink != nil {
			itLC = m.lcs[at]
			m.lcs = slices.Delete(m.lcs, at, at+1)
		}
		if t.Kind == Drop {
			c.drops++
			return c, m.dropped(c, i, int(t.From), it, "lost by the network"), nil
		}
		if !c.alive(i) {
			return c, m.dropped(c, i, int(t.From), it, "the receiver has crashed"), nil
		}
		if m.sink != nil {
			m.lc[i] = max(m.lc[i], itLC) + 1
		}
		m.emitMsg(trace.KindRecv, i, int(t.From), i, it, "")
		if c.env != 0 && m.envAt(c.env).extra.Has(trace.KindRecv) {
			viol = m.hearMsgs(c, trace.KindRecv, i, int(t.From), []node.Send{{To: i, Msg: m.msgAt(it.id)}})
		}
		m.stepNode(c, i, node.Input{Kind: node.InMsg, From: int(t.From), Msg: m.msgAt(it.id)})
		return m.carryOut(c, i, viol)
	case Fire:
		c.pend = slices.DeleteFunc(slices.Clone(c.pend), func(p pend) bool {
			return int(p.node) == i && p.kind == pendTimer && p.val == t.Timer
		})
		m.tick(i)
		m.stepNode(c, i, node.Input{Kind: node.InTick, Timer: int(t.Timer)})
		return m.carryOut(c, i, viol)
	case Command:
		lo, _ := c.pendOf(i)
		cmd := m.cmdAt(c.pend[lo].val)
		c.pend = slices.Concat(c.pend[:lo], c.pend[lo+1:]) // a copy; none when it was the only one
		return m.command(c, i, cmd.cmd, cmd.arg)
	case Crash:
		c.crashes++
		c.crashed |= 1 << (i - 1)
		c.done &^= 1 << (i - 1)
		if lo, hi := c.pendOf(i); hi > lo {
			c.pend = slices.Delete(slices.Clone(c.pend), lo, hi)
		}
		m.tick(i)
		m.emit(trace.KindCrash, i)
		viol = m.fault(c, i, trace.KindCrash)
		if int(c.restarts) >= m.cfg.Restarts { // it never comes back: what is sent to it is lost
			if v := m.purge(c, i); viol == nil {
				viol = v
			}
		}
		return c, viol, nil
	case Restart:
		c.restarts++
		nd, err := m.cfg.Factory(i)
		if err != nil {
			return nil, nil, err
		}
		if err := m.in.ops.Check(nd); err != nil {
			return nil, nil, err
		}
		c.nodes[i-1] = m.internNode(i, nd)
		c.crashed &^= 1 << (i - 1)
		m.tick(i)
		m.emit(trace.KindRecover, i)
		viol = m.fault(c, i, trace.KindRecover)
		next, v, err := m.command(c, i, node.CmdRecover, 0)
		if v == nil {
			v = viol
		}
		return next, v, err
	}
	return nil, nil, fmt.Errorf("statespace: unknown transition %v", t)
}

// fault tells c's environment that node i crashed or restarted (kind).
func (m *machine) fault(c *state, i int, kind string) *Violation {
	if c.env == 0 {
		return nil
	}
	e := m.envAt(c.env).clone()
	v, kept := e.fault(i, kind, m.now, m.cfg.Only)
	m.kept |= kept
	c.env = m.internEnv(e, nil)
	return v
}

// purge empties the links into crashed node i; it returns the first
// violation the losses made a property report.
func (m *machine) purge(c *state, i int) (viol *Violation) {
	into := func(it item) bool { return int(it.link)%m.n+1 == i }
	if !slices.ContainsFunc(c.net, into) {
		return nil
	}
	for _, it := range c.net {
		if !into(it) {
			continue
		}
		if v := m.dropped(c, i, int(it.link)/m.n+1, it, "the receiver has crashed"); viol == nil {
			viol = v
		}
	}
	if m.sink != nil {
		lcs := m.lcs[:0]
		for k, it := range c.net {
			if !into(it) {
				lcs = append(lcs, m.lcs[k])
			}
		}
		m.lcs = lcs
	}
	c.net = slices.DeleteFunc(slices.Clone(c.net), into)
	return viol
}

func (m *machine) command(c *state, i int, cmd node.Cmd, arg int) (*state, *Violation, error) {
	m.tick(i)
	if m.sink != nil {
		m.fill(trace.KindCmd, i)
		m.ev.Cmd, m.ev.Arg = string(cmd), arg
		m.sink(&m.ev)
	}
	var viol *Violation
	if c.env != 0 && m.envAt(c.env).hearsCmd() {
		viol = m.hearCmd(c, i, cmd, arg)
	}
	m.stepNode(c, i, node.Input{Kind: node.InCmd, Cmd: cmd, Arg: arg})
	return m.carryOut(c, i, viol)
}

// stepNode steps a clone of node i's state in c by in, into m.out, and
// puts the new state in c. Config.OnStep, if set, sees the step first.
func (m *machine) stepNode(c *state, i int, in node.Input) {
	orig := m.nodeAt(c.nodes[i-1])
	if m.cfg.OnStep != nil {
		m.cfg.OnStep(i, m.in.ops.Clone(orig), in)
	}
	nd := m.in.ops.Clone(orig)
	m.out.Reset()
	m.out.Now = m.now
	nd.Step(in, &m.out)
	c.nodes[i-1] = m.internNode(i, nd)
}

// carryOut applies node i's step output to c: events (to the environment,
// which may queue commands and report a violation), timers, sends, Done.
func (m *machine) carryOut(c *state, i int, viol *Violation) (*state, *Violation, error) {
	o := &m.out
	viol, err := m.hear(c, i, viol)
	if err != nil {
		return nil, nil, err
	}
	if len(o.Timers) > 0 {
		m.setTimers(c, i)
	}
	owned := m.ownNet
	for _, snd := range o.Sends {
		if snd.To < 1 || snd.To > m.n {
			return nil, nil, fmt.Errorf("node %d sent %s to node %d, outside 1..%d", i, snd.Msg.Type(), snd.To, m.n)
		}
		m.tick(i)
		id, err := m.msgID(snd.Msg)
		if err != nil {
			return nil, nil, fmt.Errorf("node %d sent %w", i, err)
		}
		it := item{link: uint32((i-1)*m.n + snd.To - 1), id: id}
		if m.sink != nil {
			m.fill(trace.KindSend, i)
			m.ev.From, m.ev.To, m.ev.Msg = i, snd.To, trace.WrapMsg(snd.Msg)
			m.sink(&m.ev)
		}
		if !c.alive(snd.To) && int(c.restarts) >= m.cfg.Restarts {
			m.emitMsg(trace.KindDrop, snd.To, i, snd.To, it, "the receiver has crashed")
			continue
		}
		if !owned {
			if len(c.net)+len(o.Sends) <= cap(m.room) {
				c.net = append(m.room, c.net...)
			} else {
				c.net = slices.Grow(slices.Clone(c.net), len(o.Sends))
			}
			owned, m.ownNet = true, true
		}
		// After the link's last message (FIFO), or at its rank (random).
		// Under the random policy two equal messages keep the order sent
		// (the trace's clocks); the state is the same either way.
		at := len(c.net)
		for k, x := range c.net {
			if x.link > it.link || x.link == it.link && m.cfg.Policy == sim.PolicyRandom && m.in.compare(x, it) > 0 {
				at = k
				break
			}
		}
		c.net = slices.Insert(c.net, at, it)
		if m.sink != nil {
			m.lcs = slices.Insert(m.lcs, at, m.lc[i])
		}
	}
	if len(o.Sends) > 0 && c.env != 0 && m.envAt(c.env).extra.Has(trace.KindSend) {
		if v := m.hearMsgs(c, trace.KindSend, i, i, o.Sends); viol == nil {
			viol = v
		}
	}
	for _, snd := range o.Sends { // lost: the receiver never comes back
		if !c.alive(snd.To) && int(c.restarts) >= m.cfg.Restarts && c.env != 0 && m.envAt(c.env).extra.Has(trace.KindDrop) {
			if v := m.hearMsgs(c, trace.KindDrop, snd.To, i, []node.Send{snd}); viol == nil {
				viol = v
			}
		}
	}
	if o.Done {
		c.done |= 1 << (i - 1)
	}
	return c, viol, nil
}

// hear emits node i's events and gives them to c's environment: the
// commands its workload answers with join the node's pending commands,
// and the first violation its properties report is returned (viol, if
// set, comes first). The step is visible if it changed the environment's
// key or reported a violation.
func (m *machine) hear(c *state, i int, viol *Violation) (*Violation, error) {
	o := &m.out
	var w *env // a copy of the environment, when it hears events: what they change is cloned
	if len(o.Events) > 0 && c.env != 0 {
		if orig := m.envAt(c.env); orig.hearsAny(o.Events) {
			m.kb = orig.appendKey(m.kb[:0])
			w = orig.cloneShown(shown(o.Events))
		}
	}
	for _, ev := range o.Events {
		m.tick(i)
		m.emitNode(i, ev)
		if w == nil {
			continue
		}
		te := m.nodeEvent(i, ev)
		acts, v, err := w.event(i, ev, m.now, te, m.cfg.Only)
		if err != nil {
			return nil, err
		}
		if len(w.proms) > 0 {
			m.kept |= w.keep(te)
		}
		if len(acts) > 0 {
			lo, hi := c.pendOf(i)
			at := lo
			for at < hi && c.pend[at].kind == pendCmd {
				at++
			}
			// the node's commands, after those it has pending
			ps := make([]pend, 0, len(c.pend)+len(acts))
			ps = append(ps, c.pend[:at]...)
			for _, a := range acts {
				ps = append(ps, pend{node: uint8(i), kind: pendCmd, val: int32(m.internCmd(command{cmd: a.Cmd, arg: a.Arg}))})
			}
			c.pend = append(ps, c.pend[at:]...)
		}
		if v != nil && viol == nil {
			viol = v
		}
	}
	if w != nil {
		m.settleEnv(c, w, viol)
	}
	return viol, nil
}

// settleEnv makes w, the environment a step built for c, c's own if its
// key differs from the one c had (m.kb): interned, it replaces c.env. The
// step is visible if it changed the environment or found a violation.
func (m *machine) settleEnv(c *state, w *env, viol *Violation) {
	m.ka = w.appendKey(m.ka[:0])
	same := bytes.Equal(m.ka, m.kb)
	m.vis = m.vis || viol != nil || !same
	if !same {
		c.env = m.internEnv(w, m.ka)
	}
}

// hearCmd shows the properties that want commands, the promises
// (Config.Liveness) and the goal's monitor (engine.Goal.Monitor) that
// node i is given command cmd: a request makes a promise. It returns the
// violation a property reports; the step is visible if that changed the
// environment.
func (m *machine) hearCmd(c *state, i int, cmd node.Cmd, arg int) *Violation {
	w := m.envAt(c.env).clone()
	m.kb = w.appendKey(m.kb[:0])
	te := &m.hte
	*te = trace.Event{V: trace.Version, T: m.now, Node: i, Kind: trace.KindCmd, Cmd: string(cmd), Arg: arg}
	w.monitor(te)
	m.kept |= w.keep(te)
	var v *Violation
	if w.extra.Has(trace.KindCmd) {
		v = w.observe(te, m.cfg.Only)
	}
	m.settleEnv(c, w, v)
	return v
}

// owed is the promises owed in s (Config.Liveness), as env.owed numbers
// them.
func (m *machine) owed(s *state) uint64 {
	if s.env == 0 {
		return 0
	}
	return m.envAt(s.env).owed()
}

// setTimers applies node i's timer output to c's pending timers: a timer
// set again replaces the pending one, a negative After cancels it.
func (m *machine) setTimers(c *state, i int) {
	ps := slices.Clone(c.pend)
	for _, t := range m.out.Timers {
		ps = slices.DeleteFunc(ps, func(p pend) bool {
			return int(p.node) == i && p.kind == pendTimer && p.val == int32(t.ID)
		})
		if t.After >= 0 {
			at := 0
			for at < len(ps) && (int(ps[at].node) < i || int(ps[at].node) == i &&
				(ps[at].kind == pendCmd || ps[at].val < int32(t.ID))) {
				at++
			}
			ps = slices.Insert(ps, at, pend{node: uint8(i), kind: pendTimer, val: int32(t.ID)})
		}
	}
	c.pend = ps
}

// tick advances node i's Lamport clock for an event (trace only).
func (m *machine) tick(i int) {
	if m.sink != nil {
		m.lc[i]++
	}
}

func (m *machine) fill(kind string, i int) {
	m.seq++
	m.ev = trace.Event{V: trace.Version, Seq: m.seq, T: m.now, Node: i, Kind: kind, LC: m.lc[i]}
}

func (m *machine) emit(kind string, i int) {
	if m.sink != nil {
		m.fill(kind, i)
		m.sink(&m.ev)
	}
}

func (m *machine) emitMsg(kind string, at, from, to int, it item, note string) {
	if m.sink != nil {
		m.fill(kind, at)
		m.ev.From, m.ev.To, m.ev.Msg, m.ev.Note = from, to, trace.WrapMsg(m.msgAt(it.id)), note
		m.sink(&m.ev)
	}
}

// dropped emits the loss of message it, sent by from to node at, and
// shows it to the properties of c's environment that follow losses (a
// token counted in flight is gone); it returns the violation one reports.
func (m *machine) dropped(c *state, at, from int, it item, note string) *Violation {
	m.emitMsg(trace.KindDrop, at, from, at, it, note)
	if c.env == 0 || !m.envAt(c.env).extra.Has(trace.KindDrop) {
		return nil
	}
	return m.hearMsgs(c, trace.KindDrop, at, from, []node.Send{{To: at, Msg: m.msgAt(it.id)}})
}

// nodeEvent is node i's event ev as the properties see it: the shape a
// run's trace.Event has, without clocks, at the machine's virtual time.
// It is scratch, valid until the next call.
func (m *machine) nodeEvent(i int, ev node.Event) *trace.Event {
	m.te = trace.Event{V: trace.Version, T: m.now, Node: i, Kind: trace.NodeKind(ev.Kind), State: ev.State, Note: ev.Note}
	if ev.Kind == node.EvLeader {
		m.leader = ev.Leader
		m.te.Leader = &m.leader
	}
	return &m.te
}

func (m *machine) emitNode(i int, ev node.Event) {
	if m.sink == nil {
		return
	}
	m.fill(trace.NodeKind(ev.Kind), i)
	switch ev.Kind {
	case node.EvState:
		m.ev.State = ev.State
	case node.EvLeader:
		l := ev.Leader
		m.ev.Leader, m.ev.Round = &l, ev.Round
	}
	m.ev.Note = ev.Note
	m.sink(&m.ev)
}
