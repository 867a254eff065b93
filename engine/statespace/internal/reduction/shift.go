package statespace

import (
	"slices"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
	"ringlab/engine/sim"
)

// The clock shift: a state whose nodes and messages all declare their
// values (node.Valuer) is replaced by its shift that makes its
// least clock 1, so that states that differ only by a constant in every
// clock become one, and the unbounded clocks of a run that never stops
// leave a finite space.
//
// Why it is exact (the reduced search reaches the shifts of exactly the
// states the full search reaches, with the same verdicts): write σ−d for
// σ with every clock lowered by d (raised, for d < 0), where d is
// least(σ)−1, so that every clock of σ−d is at least 1. By the contract of node.Values.Clock, σ−d enables
// the same transitions as σ (the same labels: under FIFO a delivery is
// named by its link alone), and each leads to step(σ, t)−d with the same
// node events; the environment (workload and properties) sees only those
// events and holds no clock, so it moves alike and judges alike. By
// induction along a path, the full search reaches σ exactly when the
// reduced one reaches σ−(least(σ)−1) (with dead values made canonical), and
// a path replayed from the real initial state passes through the real
// states, so every counterexample replays. Terminal states map to
// terminal states, since the transitions enabled are the same.
//
// The shift is applied only where that argument holds: FIFO links (under
// the random policy a link's messages are ordered by their canonical encoding,
// which a shift changes, and a path's ".K" labels would no longer name the
// same message), no state constraint (Config.Within bounds absolute
// clocks), and no pending command with a nonzero Arg (an Arg may be a
// clock floor, which is absolute).

// shifter is what one search keeps to shift states: the shifted node
// and message numbers already computed.
type shifter struct {
	nodes map[[2]uint32]uint32 // (node number, d) -> the shifted node's number
	msgs  map[[2]uint32]uint32 // (message number, d) -> the shifted message's number
	// forgot: (receiver's node number, sender, message number) -> the
	// number of the message with what its receiver will never read
	// forgotten (node.Forgetter)
	forgot map[[3]uint32]uint32
	envs   map[[2]uint32]uint32 // (environment number, d) -> the shifted one's (history.go)
	ids    renamer              // the identifiers' renaming (rename.go)
	st     stamps               // the low timestamps' renumbering (stamps.go)
	gaps   gaps                 // the gaps' narrowing (gaps.go)
	envTS  []int                // scratch: the environment's timestamps (envStamped, history.go)
	// nodeFacts, msgFacts: what each node and message number declares
	// (node.Valuer; nil: nothing), read once (values.go)
	nodeFacts, msgFacts []*reduce.Facts
}

// shifterOf is m's shifter, made on first use.
func (m *machine) shifterOf() *shifter {
	if m.sh == nil {
		m.sh = &shifter{nodes: map[[2]uint32]uint32{}, msgs: map[[2]uint32]uint32{}, forgot: map[[3]uint32]uint32{}}
	}
	return m.sh
}

// shiftable reports whether cfg's searches shift clocks.
func shiftable(cfg Config) bool {
	return !cfg.NoShift && cfg.Within == nil && cfg.Policy == sim.PolicyFIFO
}

// shift returns s with its clocks shifted (shiftClocks) and its
// identifiers renamed (renameIDs, rename.go): the state a reduced search
// keeps for s. s is not changed.
func (m *machine) shift(s *state) *state { return m.renameIDs(m.shiftClocks(s)) }

// shiftClocks returns s shifted down by its least clock (s itself where
// the shift does not apply). s is not changed.
func (m *machine) shiftClocks(s *state) *state {
	if !m.declared(s) {
		return s
	}
	c := m.lowStamps(m.closeGaps(m.forget(s)))
	least, has := 0, false
	note := func(f *reduce.Facts) {
		if l, h := f.Least(); h && (!has || l < least) {
			least, has = l, true
		}
	}
	for k, id := range c.nodes {
		if c.alive(k + 1) {
			note(m.nodeFacts(id))
		}
	}
	for _, it := range c.net {
		note(m.msgFacts(it.id))
	}
	d := 0
	if has {
		d = least - 1
	}
	shift := reduce.Mapping{Clock: minus(d), Stamp: minus(d), Dead: true}
	// c is copied (own) only when something in it changes: with d = 0,
	// most often nothing does
	own := func() {
		if c == s {
			c = s.shallow()
		}
	}
	for k, id := range c.nodes {
		if !c.alive(k + 1) {
			continue
		}
		key := [2]uint32{id, uint32(d)}
		nid, ok := m.sh.nodes[key]
		if !ok {
			nid = m.internNode(k+1, mapNode(m.nodeAt(id), shift))
			m.sh.nodes[key] = nid
		}
		if nid != id {
			own()
			c.nodes[k] = nid
		}
	}
	if d == 0 {
		return c
	}
	own()
	if len(c.net) > 0 {
		net := make([]item, len(c.net))
		for k, it := range c.net {
			key := [2]uint32{it.id, uint32(d)}
			mid, ok := m.sh.msgs[key]
			if !ok {
				mid = m.derivedID(mapMsg(m.msgAt(it.id), shift), "the clock shift")
				m.sh.msgs[key] = mid
			}
			net[k] = item{link: it.link, id: mid}
		}
		c.net = net
	}
	c.env = m.shiftEnv(c.env, d)
	return c
}

// forget returns s with every message in flight to a node.Forgetter
// replaced by what its receiver will read of it (s itself if none
// changes, or while a restart, which rebuilds a receiver, may still
// happen). s is not changed.
//
// Why it is exact: by the node.Forgetter contract, a state and its forgotten
// one take the same steps with the same events, and each step leads to
// states that again differ only in values their receivers will never
// read, or not at all (a delivered message is gone, new ones are sent
// alike); so by induction along a path they have the same futures. It
// commutes with the shift: a clock at most the receiver's stays so when
// both are lowered by d, and the canonical values are ones the shift
// leaves alone.
func (m *machine) forget(s *state) *state {
	if m.noForget || int(s.restarts) < m.cfg.Restarts || len(s.net) == 0 {
		return s
	}
	n := len(s.nodes)
	var net []item
	for k, it := range s.net {
		from, to := int(it.link)/n+1, int(it.link)%n+1
		if !s.alive(to) {
			continue
		}
		nid := s.nodes[to-1]
		f, ok := m.nodeAt(nid).(node.Forgetter)
		if !ok {
			continue
		}
		key := [3]uint32{nid, uint32(from), it.id}
		mid, ok := m.sh.forgot[key]
		if !ok {
			mid = it.id
			if msg, changed := f.Forget(from, m.msgAt(it.id)); changed {
				mid = m.derivedID(msg, "Forget")
			}
			m.sh.forgot[key] = mid
		}
		if mid != it.id {
			if net == nil {
				net = slices.Clone(s.net)
			}
			net[k].id = mid
		}
	}
	if net == nil {
		return s
	}
	c := s.shallow()
	c.net = net
	return c
}
