package engine

import "ringlab/engine/node"

// ReactFunc is a Workload made of one plain function: React calls it, a
// crash or a restart changes nothing, and it has no state to clone or key.
// It suits a workload whose answers depend on the event alone (and a
// caller that keeps its state elsewhere, outside the exhaustive checker).
type ReactFunc func(i int, ev node.Event, now int64) []node.Action

// React calls f.
func (f ReactFunc) React(i int, ev node.Event, now int64) []node.Action { return f(i, ev, now) }

// Crash does nothing: a ReactFunc keeps no state per node.
func (ReactFunc) Crash(int) {}

// Restart does nothing.
func (ReactFunc) Restart(int) {}

// Clone returns f itself: it has no state to copy.
func (f ReactFunc) Clone() Workload { return f }

// AppendKey appends nothing: f's answers depend on nothing but the event.
func (ReactFunc) AppendKey(b []byte) []byte { return b }

// WorkloadOf is the Workload of a Config that offers both forms: w if it
// is not nil, else react as a ReactFunc, else nil.
func WorkloadOf(w Workload, react node.React) Workload {
	switch {
	case w != nil:
		return w
	case react != nil:
		return ReactFunc(react)
	}
	return nil
}
