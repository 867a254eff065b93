package reduction

import (
	"ringlab/engine/node"
	"ringlab/engine/reduce"
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
	envs   map[[2]uint32]uint32 // (environment number, d) -> the shifted one's (shiftEnv)
	ids    renamer              // the identifiers' renaming (rename.go)
	st     stamps               // the low timestamps' renumbering (stamps.go)
	gaps   gaps                 // the gaps' narrowing (gaps.go)
	envTS  []int                // scratch: the environment's timestamps (envStamped)
	// nodeFacts, msgFacts: what each node and message number declares
	// (node.Valuer; nil: nothing), read once (values.go)
	nodeFacts, msgFacts []*reduce.Facts
}

// shiftClocks returns s shifted down by its least clock (s itself where
// the shift does not apply). s is not changed.
func (r *Reducer) shiftClocks(s *State) *State {
	if !r.declared(s) {
		return s
	}
	c := r.lowStamps(r.closeGaps(r.forget(s)))
	least, has := 0, false
	note := func(f *reduce.Facts) {
		if l, h := f.Least(); h && (!has || l < least) {
			least, has = l, true
		}
	}
	for k, id := range c.Nodes {
		if c.alive(k + 1) {
			note(r.NodeFacts(id))
		}
	}
	for _, it := range c.Net {
		note(r.MsgFacts(it.ID))
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
			c = r.shallow(s)
		}
	}
	for k, id := range c.Nodes {
		if !c.alive(k + 1) {
			continue
		}
		key := [2]uint32{id, uint32(d)}
		nid, ok := r.sh.nodes[key]
		if !ok {
			nid = r.sp.InternNode(k+1, MapNode(r.sp.Node(id), shift))
			r.sh.nodes[key] = nid
		}
		if nid != id {
			own()
			c.Nodes[k] = nid
		}
	}
	if d == 0 {
		return c
	}
	own()
	if len(c.Net) > 0 {
		net := c.ownNet()
		for k, it := range net {
			key := [2]uint32{it.ID, uint32(d)}
			mid, ok := r.sh.msgs[key]
			if !ok {
				mid = r.sp.InternMsg(MapMsg(r.sp.Msg(it.ID), shift), "the clock shift")
				r.sh.msgs[key] = mid
			}
			net[k] = Item{Link: it.Link, ID: mid}
		}
		c.Net = net
	}
	c.Env = r.shiftEnv(c.Env, d)
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
func (r *Reducer) forget(s *State) *State {
	if r.NoForget || s.Restarting || len(s.Net) == 0 {
		return s
	}
	n := len(s.Nodes)
	var c *State
	for k, it := range s.Net {
		from, to := int(it.Link)/n+1, int(it.Link)%n+1
		if !s.alive(to) {
			continue
		}
		nid := s.Nodes[to-1]
		f, ok := r.sp.Node(nid).(node.Forgetter)
		if !ok {
			continue
		}
		key := [3]uint32{nid, uint32(from), it.ID}
		mid, ok := r.sh.forgot[key]
		if !ok {
			mid = it.ID
			if msg, changed := f.Forget(from, r.sp.Msg(it.ID)); changed {
				mid = r.sp.InternMsg(msg, "Forget")
			}
			r.sh.forgot[key] = mid
		}
		if mid != it.ID {
			if c == nil {
				c = r.shallow(s)
				c.ownNet()
			}
			c.Net[k].ID = mid
		}
	}
	if c == nil {
		return s
	}
	return c
}

// envStamped reports whether the check.Stamped properties of the
// environment env hold any timestamp. It lists them in the shifter's
// scratch, so that asking costs no allocation.
func (r *Reducer) envStamped(env uint32) bool {
	if env == 0 {
		return false
	}
	r.sh.envTS = r.sp.EnvStamps(env, r.sh.envTS[:0])
	return len(r.sh.envTS) > 0
}

// shiftEnv is the environment env with its properties' timestamps
// lowered by d (the clock shift), computed once per (env, d).
func (r *Reducer) shiftEnv(env uint32, d int) uint32 {
	if env == 0 {
		return env
	}
	key := [2]uint32{env, uint32(d)}
	if id, ok := r.sh.envs[key]; ok {
		return id
	}
	if r.sh.envs == nil {
		r.sh.envs = map[[2]uint32]uint32{}
	}
	id := r.renameEnv(env, minus(d))
	r.sh.envs[key] = id
	return id
}

// renameEnv is the environment env with its properties' timestamps
// renamed (env itself if it holds none).
func (r *Reducer) renameEnv(env uint32, rename func(int) int) uint32 {
	if !r.envStamped(env) {
		return env
	}
	return r.sp.RenameEnvStamps(env, rename)
}
