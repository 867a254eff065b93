package statespace

import "sync/atomic"

// stepWoken makes the workers of a parallel search with the
// partial-order reduction step what the committer would otherwise step
// itself: a state's transitions woken since it was queued (a revisit
// took them out of its sleep set) and those of a re-expansion. A worker
// reads the state's sleep set as it is now, not as it was when the state
// was queued; the committer may still wake more before it commits the
// state (it steps those), never fewer, so the worker steps nothing the
// committer does not take. Off (the plain version), a worker skips
// re-expansions and the transitions asleep when the state was queued.
// Gain, the committer's share of the CPU of two workers (CPU profile of
// BenchmarkCheck/algo=lamport-tla/impl=por/workers=2): 8.4% against
// 19.2%; the committer steps 195 transitions of the search's 1,015,469
// against 114,819.
const stepWoken = true

// asleepNow is the number of e's sleep set as a worker may read it: as
// it is now, or where that set is newer than the worker's copy of the
// sets (or stepWoken is off), as it was when e was queued.
func (s *searcher) asleepNow(e *entry) int32 {
	if !stepWoken {
		return e.sleep
	}
	v := int32(atomic.LoadUint32(&s.par.sleeps[e.rec/slabLen].s[e.rec%slabLen]) &^ expandedBit)
	if int(v) >= s.par.sets.len() {
		return e.sleep
	}
	return v
}
