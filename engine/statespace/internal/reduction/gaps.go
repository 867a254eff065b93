package reduction

import (
	"encoding/binary"
	"slices"

	"ringlab/engine/node"
	"ringlab/engine/reduce"
)

// The gaps narrowed: in a state whose live nodes and messages all declare
// their values (node.Valuer) and whose live nodes are node.Climbers, a gap between two
// consecutive distinct values (clocks and timestamps, in nodes and in
// messages in flight) that lies below the second least clock is narrowed
// to the most that can matter. A node left behind (its request waiting on
// a link while others enter again and again) keeps the least clock, which
// is still read, so the shift cannot move it; this bounds the gap above it
// instead. It runs after forgetting (values a receiver will never read)
// and before the low timestamps' renumbering and the shift: before the
// renumbering so that it sees the values in their own order (the
// renumbering may lift a timestamp past a message's clock no longer read,
// and the narrowed form would then depend on the path).
//
// Why it is exact. Take a gap between consecutive values u < u' and split
// the state's values into L (those <= u) and H (those >= u'). Let U be:
//
//   - 0 if no live node's clock is in L: every value in L then stays as it
//     is (only clocks rise), is compared with the others as before (an L
//     value is below every H value and every value made later, those
//     being copies of clocks, all in H or above), and max(clock, v) with
//     v in L is the clock;
//   - Climb(in) of P if exactly one live node P has its clock in L, in
//     being the messages in flight to P whose Clock is in L (or which
//     have none): the other clocks are in H and never fall, so every other
//     message P will receive brings a clock in H and lifts P's clock into
//     H; until then each of P's steps raises the top of L (the larger of u
//     and P's clock; P's new values are at most its clock) by at most its
//     rise, and Climb falls by at least as much (the node.Climber
//     contract). Other nodes' steps leave P and in as they are (what they
//     send P brings a clock in H); a message to P lost lowers in, and
//     Climb with it; P's crash leaves no clock in L;
//   - unbounded (the gap is kept) if two clocks are in L, or P has no
//     bound.
//
// Call two states alike at the gap if they differ only in its width, both
// at least U+1 (U is the same for both: it depends on the values' order
// and on P's state, not on the values' sizes). Every value derived from L
// stays below every value derived from H by at least U+1 minus what the
// top of L has risen, which is at least Climb after the step plus 1, so
// every comparison and max comes out the same in both, and the successors
// are alike at the gap again (the gap as narrow as before minus the rise,
// U as small as before minus the rise, or 0 once P has left L). Gaps apart
// are independent: a value's side of each gap is kept by every step. So
// two states with the same narrowed form have the same futures, with the
// same events and verdicts; the narrowed form of a successor depends only
// on the narrowed form of its parent; and a search that keeps the
// narrowed states reaches exactly the narrowings of the states the full
// one reaches. Narrowing is the map that sets each gap to min(width, U+1)
// and keeps the least value: strictly increasing, and it leaves every U
// as it was.
//
// It is off while a restart may still rebuild a node with a lower clock.

// gaps is what one search keeps to narrow gaps: scratch space and the
// mapped node and message numbers already computed.
type gaps struct {
	vs, clocks, w []int
	remap
}

// closeGaps returns s with its gaps below the second least clock narrowed
// (s itself where nothing moves or the narrowing does not apply). s is not
// changed.
func (r *Reducer) closeGaps(s *State) *State {
	if r.NoGaps || s.Restarting {
		return s
	}
	if r.envStamped(s.Env) {
		// a property keeps timestamps (check.Stamped) whose gaps no
		// node.Climber bounds: left as they are
		return s
	}
	g := &r.sh.gaps
	clocks := g.clocks[:0]
	for k, id := range s.Nodes {
		if !s.alive(k + 1) {
			continue
		}
		if _, ok := r.sp.Node(id).(node.Climber); !ok {
			return s
		}
		f, ok := r.NodeFacts(id).Floor()
		if !ok {
			return s
		}
		clocks = append(clocks, f)
	}
	vs := r.values(s, g.vs[:0], clocksAndStamps)
	g.vs, g.clocks = vs, clocks
	if len(clocks) == 0 || len(vs) < 2 {
		return s
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	// the least and second least clocks, and P, the node with the least
	least, second, p, hasSecond := 0, 0, 0, false
	k := 0
	for i := range s.Nodes {
		if !s.alive(i + 1) {
			continue
		}
		c := clocks[k]
		k++
		switch {
		case p == 0 || c < least:
			if p != 0 {
				second, hasSecond = least, true
			}
			least, p = c, i+1
		case !hasSecond || c < second:
			second, hasSecond = c, true
		}
	}
	// the new values: w_0 = v_0, w_{j+1} = w_j + min(v_{j+1}-v_j, U_j+1)
	n := len(s.Nodes)
	moved := false
	w := append(g.w[:0], make([]int, len(vs))...)
	g.w = w
	w[0] = vs[0]
	for j := 0; j+1 < len(vs); j++ {
		width := vs[j+1] - vs[j]
		nw := width
		switch u := vs[j]; {
		case hasSecond && u >= second:
			// two clocks in L: kept
		case u < least:
			nw = min(width, 1+r.GapSlack)
		default:
			in := 0
			for _, it := range s.Net {
				if int(it.Link)%n+1 != p {
					continue
				}
				if t, has := r.MsgFacts(it.ID).Brings(); !has || t <= u {
					in++
				}
			}
			if rise, ok := r.sp.Node(s.Nodes[p-1]).(node.Climber).Climb(in); ok {
				nw = min(width, rise+1+r.GapSlack)
			}
		}
		if nw != width {
			moved = true
		}
		w[j+1] = w[j] + nw
	}
	if !moved {
		return s
	}
	g.begin()
	for j, v := range vs {
		if w[j] != v {
			g.key = binary.AppendVarint(binary.AppendVarint(g.key, int64(v)), int64(w[j]))
		}
	}
	f := func(v int) int {
		if j, ok := slices.BinarySearch(vs, v); ok {
			return w[j]
		}
		panic("statespace: a value the node did not declare")
	}
	return g.apply(r, s, true, reduce.Mapping{Clock: f, Stamp: f, Dead: true})
}
