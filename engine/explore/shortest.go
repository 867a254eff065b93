package explore

import (
	"context"
	"fmt"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// Shortest searches breadth first from the state path reaches for the
// nearest violation, without the partial-order reduction, and returns the
// transitions that lead there from it (the first a step that violates a
// property, or a terminal state where one fails at the end of the run).
// found is false when no violation is reachable from that state. It stops
// with an error past limit distinct states (0: no limit) or when ctx is
// done. A path that has already violated returns no steps, found.
func (x *Explorer) Shortest(ctx context.Context, path []statespace.Trans, limit int) (steps []statespace.Trans, found bool, err error) {
	rr, s0, err := x.m.Replay(path, nil)
	if err != nil {
		return nil, false, err
	}
	if rr.Violation != nil {
		return nil, true, nil
	}
	type visit struct {
		s      statespace.State
		parent int32
		via    statespace.Trans
	}
	q := []visit{{s: s0, parent: -1}}
	seen := map[uint64]bool{x.m.Key(s0): true}
	chain := func(k int32, last *statespace.Trans) []statespace.Trans {
		var ts []statespace.Trans
		if last != nil {
			ts = append(ts, *last)
		}
		for ; q[k].parent >= 0; k = q[k].parent {
			ts = append(ts, q[k].via)
		}
		for a, b := 0, len(ts)-1; a < b; a, b = a+1, b-1 {
			ts[a], ts[b] = ts[b], ts[a]
		}
		return ts
	}
	var ts []statespace.Trans
	for k := 0; k < len(q); k++ {
		if k%256 == 0 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		s := q[k].s
		q[k].s = statespace.State{} // expanded: only the chain back is needed now
		if x.m.Terminal(s) {
			cont := chain(int32(k), nil)
			bad, err := x.endViolates(append(append([]statespace.Trans(nil), path...), cont...))
			if err != nil {
				return nil, false, err
			}
			if bad {
				return cont, true, nil
			}
			continue
		}
		ts = x.m.Enabled(s, ts[:0])
		for _, t := range ts {
			next, viol, err := x.m.Step(s, t)
			if err != nil {
				return nil, false, err
			}
			if viol != nil {
				return chain(int32(k), &t), true, nil
			}
			key := x.m.Key(next)
			if seen[key] {
				continue
			}
			seen[key] = true
			q = append(q, visit{s: next, parent: int32(k), via: t})
		}
		if limit > 0 && len(q) > limit {
			return nil, false, fmt.Errorf("explore: more than %d states from here: too many to find the nearest violation", limit)
		}
	}
	return nil, false, nil
}

// endViolates replays path, which ends in a terminal state, and reports
// whether a property fails at the end of that run.
func (x *Explorer) endViolates(path []statespace.Trans) (bool, error) {
	if x.cfg.Checks == nil {
		return false, nil
	}
	set := check.NewSet(x.cfg.Checks()...)
	rr, _, err := x.m.Replay(path, func(e *trace.Event) { set.Observe(e) })
	if err != nil {
		return false, err
	}
	if len(set.Violations) > 0 {
		return true, nil
	}
	for _, v := range set.Finish(check.End{Terminated: rr.Terminated, Messages: rr.Messages}) {
		if !v.OK {
			return true, nil
		}
	}
	return false, nil
}
