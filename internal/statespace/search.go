// Package statespace is ringlab's exhaustive checker: a breadth-first
// search of every state a small system of real node.Node machines can
// reach, branching on every choice the simulator would make at random —
// which message is delivered next (under FIFO the head of any link, under
// the random policy any message in flight), which pending timer fires,
// which command of the environment comes next, and, within budgets, where
// a crash, a restart or a lost message strikes.
//
// Time is not modelled: under TimersAny a pending timer may fire at any
// moment (the asynchronous model, where a slow node and a dead one look
// alike); under TimersQuiet only when no message is in flight (every
// timeout longer than any message delay). States are deduplicated by a
// canonical key (every node's node.Snapshot key, the links, the pending
// timers and commands, the World, the budgets spent), stored as a 64-bit
// fingerprint or, with Exact, in full; node states, messages and Worlds
// are interned, so a state is a few small slices of numbers. The
// partial-order reduction (POR) takes, where it can, only one group of
// nodes' invisible steps (ample sets, which cut states) and skips the
// second order of steps at two different nodes (sleep sets, which cut
// transitions); the README argues its soundness.
//
// Safety is judged at every transition by the World (a state predicate
// over the nodes' events); liveness at every terminal state, by replaying
// the path that reached it through the run's own checkers.
package statespace

import (
	"context"
	"hash/maphash"
	"runtime"
	"slices"
	"time"

	"ringlab/internal/check"
	"ringlab/internal/trace"
)

// Search explores cfg's state space breadth first. It stops at the first
// violation (a shortest path to it), at a bound, or when ctx is done.
//
// With the ample sets, the first violation found may lie on a longer path
// than the shortest one (the reduction postpones a node's invisible steps
// only in some orders), so Search then looks for the shortest one again
// with sleep sets only, no deeper than the path it found.
func Search(ctx context.Context, cfg Config) (Result, error) {
	res, err := search(ctx, cfg)
	if err != nil || res.Violation == nil || !cfg.POR || cfg.sleepOnly || res.Reduced == 0 {
		return res, err
	}
	full := cfg
	full.sleepOnly, full.MaxDepth = true, len(res.Path)
	if cfg.Timeout > 0 {
		full.Timeout = max(cfg.Timeout-res.Elapsed, time.Millisecond)
	}
	short, err := search(ctx, full)
	if err != nil {
		return res, err
	}
	res.Elapsed += short.Elapsed
	res.ShortestStates = short.Distinct
	if short.Violation != nil {
		res.Violation, res.Path = short.Violation, short.Path
	}
	return res, nil
}

func search(ctx context.Context, cfg Config) (Result, error) {
	var res Result
	start := time.Now()
	m, s0, err := newMachine(cfg, nil, nil)
	if err != nil {
		return res, err
	}
	var deadline time.Time
	if cfg.Timeout > 0 {
		deadline = start.Add(cfg.Timeout)
	}
	seed := maphash.MakeSeed()
	fp := newFPSet()
	sleeps := newSleepSets()
	full := map[string]int32{}
	var key []byte
	lookup := func(s *state) (int32, bool, []byte) {
		key = s.appendKey(key[:0], m.in)
		if cfg.Exact {
			idx, ok := full[string(key)]
			return idx, ok, key
		}
		idx, ok := fp.get(maphash.Bytes(seed, key))
		return idx, ok, key
	}
	var recs chunked[rec]
	insert := func(k []byte, r rec) int32 {
		idx := int32(recs.push(r))
		if cfg.Exact {
			full[string(k)] = idx
		} else {
			fp.put(maphash.Bytes(seed, k), idx)
		}
		return idx
	}
	path := func(idx int32) []Trans {
		var p []Trans
		for ; idx > 0; idx = recs.at(int(idx)).parent {
			p = append(p, recs.at(int(idx)).t)
		}
		slices.Reverse(p)
		return p
	}
	finish := func() (Result, error) {
		res.Elapsed = time.Since(start)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		res.MemBytes = ms.Sys
		return res, nil
	}
	judge := func(idx int32) (*Violation, error) {
		res.Terminal++
		if cfg.Checks == nil {
			return nil, nil
		}
		set := check.NewSet(cfg.Checks()...)
		rr, err := replay(cfg, m.in, path(idx), func(e *trace.Event) { set.Observe(e) })
		if err != nil {
			return nil, err
		}
		for _, v := range set.Finish(check.End{Terminated: rr.Terminated, Messages: rr.Messages}) {
			if !v.OK && (cfg.Only == "" || v.Property == cfg.Only) {
				return &Violation{Property: v.Property, Detail: v.Detail}, nil
			}
		}
		return nil, nil
	}

	_, _, k0 := lookup(s0)
	insert(k0, rec{parent: -1})
	res.Distinct = 1
	if m.terminal(s0) {
		if v, err := judge(0); err != nil || v != nil {
			res.Violation = v
			r, _ := finish()
			return r, err
		}
	}
	var levelA, nextA arena
	var level, next chunked[entry]
	level.push(entry{ref: levelA.add(k0), n: uint32(len(k0)), only: -1})
	push := func(k []byte, e entry) {
		e.ref, e.n = nextA.add(k), uint32(len(k))
		next.push(e)
	}
	var ts []Trans
	var slb, wakeb, keepb []Trans // scratch
	// memo holds the successors pickAmple computed while trying ample
	// sets, so that the expansion does not step them again.
	var memo []succ
	succOf := func(s *state, t Trans) (*state, *Violation, error) {
		for _, c := range memo {
			if c.t == t {
				return c.s, c.viol, nil
			}
		}
		return m.step(s, t)
	}
	var cands []uint64
	// pickAmple returns the transitions of the first candidate ample set
	// of e whose steps are all invisible and none of whose successors
	// was seen at e's depth or less (the cycle proviso), and whether it is
	// smaller than ts; otherwise ts itself.
	pickAmple := func(e *entry, es *state, ts []Trans) ([]Trans, bool, error) {
		cands = m.ampleSets(es, ts, cands)
	next:
		for _, S := range cands {
			for _, t := range ts {
				if S&(1<<(t.Node-1)) == 0 {
					continue
				}
				k := slices.IndexFunc(memo, func(c succ) bool { return c.t == t })
				if k < 0 {
					s, viol, err := m.step(es, t)
					if err != nil {
						return nil, false, err
					}
					memo = append(memo, succ{t: t, s: s, viol: viol, vis: m.vis})
					k = len(memo) - 1
				}
				if memo[k].vis || !m.within(memo[k].s) {
					continue next // visible, or beyond the constraint: expand in full
				}
				if idx, seen, _ := lookup(memo[k].s); seen && recs.at(int(idx)).depth <= e.depth {
					continue next
				}
			}
			return slices.DeleteFunc(ts, func(t Trans) bool { return S&(1<<(t.Node-1)) == 0 }), true, nil
		}
		return ts, false, nil
	}
	bounded := false
	for level.len() > 0 {
		for qi := range level.len() {
			e := level.at(qi)
			es := decode(levelA.get(e.ref, e.n), m.n)
			if res.Explored&255 == 0 {
				if ctx.Err() != nil {
					res.Stop = "interrupted"
					return finish()
				}
				if !deadline.IsZero() && time.Now().After(deadline) {
					res.Stop = "timeout"
					return finish()
				}
				if cfg.MaxMemory > 0 && res.Explored&(1<<14-1) == 0 && heapBytes() > cfg.MaxMemory {
					res.Stop = "max-memory"
					return finish()
				}
			}
			res.Explored++
			r := recs.at(int(e.rec))
			ts = m.enabled(es, ts[:0])
			memo = memo[:0]
			if cfg.POR && !cfg.sleepOnly && e.only < 0 {
				var reduced bool
				if ts, reduced, err = pickAmple(e, es, ts); err != nil {
					return res, err
				}
				if reduced {
					res.Reduced++
				}
			}
			var sleep []Trans
			if cfg.POR {
				sleep = sleeps.sets[r.sleep]
				if e.only >= 0 {
					only := sleeps.sets[e.only]
					ts = slices.DeleteFunc(ts, func(t Trans) bool { return !containsT(only, t) })
				} else {
					ts = slices.DeleteFunc(ts, func(t Trans) bool { return containsT(sleep, t) })
				}
				r.expanded = true
			}
			var done []Trans
			for _, t := range ts {
				succ, viol, err := succOf(es, t)
				if err != nil {
					return res, err
				}
				res.Transitions++
				sl := slb[:0]
				if cfg.POR {
					for _, u := range sleep {
						if m.independent(u, t) {
							sl = append(sl, u)
						}
					}
					for _, u := range done {
						if m.independent(u, t) {
							sl = append(sl, u)
						}
					}
					done = append(done, t)
				}
				idx, seen, k := lookup(succ)
				if seen {
					if cfg.POR {
						old := recs.at(int(idx))
						wake, keep := wakeb[:0], keepb[:0]
						for _, u := range sleeps.sets[old.sleep] {
							if containsT(sl, u) {
								keep = append(keep, u)
							} else {
								wake = append(wake, u)
							}
						}
						if len(wake) > 0 {
							old.sleep = sleeps.id(keep)
							if old.expanded {
								push(k, entry{rec: idx, depth: old.depth, only: sleeps.id(wake)})
							}
						}
						wakeb, keepb = wake, keep
					}
					continue
				}
				slb = sl
				idx = insert(k, rec{parent: e.rec, depth: e.depth + 1, t: t, sleep: sleeps.id(sl)})
				if cfg.CheckClones {
					if err := m.checkClone(cfg, succ, path(idx), k); err != nil {
						return res, err
					}
				}
				res.Distinct++
				d := int(e.depth) + 1
				res.Depth = max(res.Depth, d)
				if viol != nil && (cfg.Only == "" || viol.Property == cfg.Only) {
					res.Violation, res.Path = viol, path(idx)
					return finish()
				}
				if !m.within(succ) {
					res.Beyond++ // outside the constraint: counted, not expanded
				} else if m.terminal(succ) {
					v, err := judge(idx)
					if err != nil {
						return res, err
					}
					if v != nil {
						res.Violation, res.Path = v, path(idx)
						return finish()
					}
				} else if cfg.MaxDepth > 0 && d >= cfg.MaxDepth {
					bounded = true
				} else {
					push(k, entry{rec: idx, depth: int32(d), only: -1})
				}
				if cfg.MaxStates > 0 && res.Distinct >= cfg.MaxStates {
					res.Stop = "max-states"
					return finish()
				}
			}
		}
		level, next = next, chunked[entry]{}
		levelA, nextA = nextA, arena{}
	}
	if bounded {
		res.Stop = "max-depth"
	} else {
		res.Exhausted = true
	}
	return finish()
}

// heapBytes is the live Go heap, as the runtime last measured it.
func heapBytes() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// independent reports whether t and u commute and neither disables the
// other: steps at two different nodes that take an input each. A fault
// is dependent on everything; under TimersQuiet so is a timer (any send
// or delivery may enable or disable it).
func (m *machine) independent(t, u Trans) bool {
	if t.Node == u.Node || t.Kind > Command || u.Kind > Command {
		return false
	}
	return m.cfg.Timers != TimersQuiet || (t.Kind != Fire && u.Kind != Fire)
}

func containsT(ts []Trans, t Trans) bool {
	for _, u := range ts {
		if u.same(t) {
			return true
		}
	}
	return false
}
