package statespace

import (
	"math/bits"
	"slices"

	"ringlab/engine/sim"
)

// ampleSets returns, as node masks ordered by how few transitions they
// take, the candidate ample sets of s: a set S of nodes whose enabled
// transitions are persistent in s (the README argues why). Nil when the
// reduction does not apply here: under the random policy (any message
// sent to a node is at once a new delivery), under TimersQuiet (a send
// disables every timer), or when a fault is enabled (faults are
// dependent on everything).
//
// S starts from one node and is closed under "may send to S before S
// moves": a live node j outside S whose link j→x into a node x of S is
// empty could send x a message that becomes a new delivery at x. Under
// FIFO a message sent on a link that already holds one is not deliverable
// until S itself has taken the head, so such j may stay outside. A
// candidate that holds every enabled transition is no reduction and is
// left out.
func (m *machine) ampleSets(s *state, ts []Trans, out []uint64) []uint64 {
	out = out[:0]
	if m.cfg.Policy != sim.PolicyFIFO || m.cfg.Timers != TimersAny || len(ts) < 2 {
		return out
	}
	n := m.n
	var en uint64
	for _, t := range ts {
		if t.Kind > Command {
			return out
		}
		en |= 1 << (t.Node - 1)
	}
	if bits.OnesCount64(en) < 2 {
		return out
	}
	if cap(m.into) < n+1 {
		m.into = make([]uint64, n+1)
	}
	into := m.into[:n+1]
	clear(into)
	for _, it := range s.net {
		from, to := int(it.link)/n+1, int(it.link)%n+1
		into[to] |= 1 << (from - 1)
	}
	alive := (uint64(1)<<n - 1) &^ s.crashed
	for seeds := en; seeds != 0; seeds &= seeds - 1 {
		S := seeds & -seeds
		for todo := S; todo != 0; {
			x := bits.TrailingZeros64(todo) + 1
			todo &^= 1 << (x - 1)
			add := alive &^ S &^ into[x]
			S |= add
			todo |= add
		}
		if en&^S == 0 || slices.Contains(out, S) {
			continue
		}
		out = append(out, S)
	}
	count := func(S uint64) int {
		c := 0
		for _, t := range ts {
			if S&(1<<(t.Node-1)) != 0 {
				c++
			}
		}
		return c
	}
	slices.SortStableFunc(out, func(a, b uint64) int { return count(a) - count(b) })
	return out
}
