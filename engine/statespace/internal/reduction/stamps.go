package reduction

import (
	"encoding/binary"
	"slices"

	"ringlab/engine/reduce"
)

// The low timestamps renumbered: in a state whose live nodes and messages
// all declare their values (node.Valuer), every node a clock, the
// timestamps (node.Values.Stamp) below every node's clock (F, the least clock) are renamed, keeping their order
// and equalities, to F-k..F-1 (k of them), before the shift.
//
// Why it is exact: every timestamp made from now on is above F (clocks
// never decrease, and a node stamps above its clock), so a timestamp t < F
// is only ever compared with the timestamps the state holds (order and
// equality kept by the renaming) or with later ones (all above F, above t
// and its new name alike), and max(clock, t) is the clock for both (every
// clock is at least F). By the contract of node.Values.Stamp the renamed state takes
// the same steps with the same events to the successors renamed alike;
// the successor's own low timestamps include these, renumbered the same
// way up to the successor's F, which is at least the old F. Two states
// with the same renumbering therefore have the same futures, and a search
// that keeps the renumbered states reaches exactly the renumberings of the
// states the full one reaches. It commutes with the shift (both keep
// order, and the shift moves F and the timestamps alike).
//
// It is off while a restart may still rebuild a node with a lower clock.

// stamps is what one search keeps to renumber: scratch space and the
// renamed node and message numbers already computed.
type stamps struct {
	ts []int
	remap
}

// lowStamps returns s with its timestamps below the least clock
// renumbered (s itself where nothing moves or the renumbering does not
// apply). s is not changed.
func (r *Reducer) lowStamps(s *State) *State {
	if r.NoStamps || s.Restarting {
		return s
	}
	st := &r.sh.st
	ts := r.values(s, st.ts[:0], stampsOnly)
	ts = r.sp.EnvStamps(s.Env, ts)
	st.ts = ts
	if len(ts) == 0 {
		return s
	}
	floor, has := 0, false
	for k, id := range s.Nodes {
		if !s.alive(k + 1) {
			continue
		}
		f, ok := r.NodeFacts(id).Floor()
		if !ok {
			return s // a node without a clock bounds no timestamp
		}
		if !has || f < floor {
			floor, has = f, true
		}
	}
	ts = slices.DeleteFunc(ts, func(t int) bool { return t >= floor })
	if !has || len(ts) == 0 {
		return s
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	// t_j (ascending, j = 0..k-1) becomes floor-k+j; the key names the
	// values that move.
	k := len(ts)
	st.begin()
	moved := false
	for j, t := range ts {
		if nt := floor - k + j; nt != t {
			moved = true
			st.key = binary.AppendVarint(binary.AppendVarint(st.key, int64(t)), int64(nt))
		}
	}
	if !moved {
		return s
	}
	rename := func(t int) int {
		if j, ok := slices.BinarySearch(ts, t); ok {
			return floor - k + j
		}
		return t
	}
	c := st.apply(r, s, true, reduce.Mapping{Stamp: rename, Dead: true})
	c.Env = r.renameEnv(c.Env, rename)
	return c
}
