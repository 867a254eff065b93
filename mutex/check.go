package mutex

import (
	"fmt"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/reduce"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
	"ringlab/mutex/tokenring"
)

// kit is pl as the mutual-exclusion kit takes it: the kit adds the
// workload and the properties, and every System it builds of it is
// dressed with the chapter's goals and figures.
func (pl plan) kit() kit.Plan {
	kind := kit.Permission
	if pl.token {
		kind = kit.Token
	}
	return kit.Plan{
		Kind: kind, Nodes: pl.nodes, Factory: pl.factory, Messages: pl.messages,
		Requesters: pl.requesters, Start: pl.start,
		Order: pl.order, Strict: pl.strict, Promise: pl.promise,
		TokenType: tokenring.Msg{}.Type(), Regen: pl.regen, Symmetry: pl.symmetry,
		Infinite: pl.infinite, Unexhausted: pl.unexhausted,
		Names: pl.names, Topology: pl.topology, Edges: pl.edges, Theory: pl.theory,
		Dress: func(sys *engine.System) { pl.dress(sys) },
	}
}

// dress adds the chapter's goals and figures to sys, a System of pl, and
// returns the figures it counts as it runs.
func (pl plan) dress(sys *engine.System) *stats {
	st := newStats()
	sys.Goals = goals(pl)
	sys.Observe = st.observe
	sys.Figures = func(s *trace.Summary) map[string]any { return st.extra(s, pl) }
	return st
}

// newSpec assembles a run of plan pl under workload w: a System of its
// own, with fresh workload state and properties, and the figures st it
// counts as it runs.
func newSpec(name string, pl plan, w kit.Workload) (sys engine.System, st *stats) {
	k := pl.kit()
	k.Dress = nil
	sys = k.System(name, w)
	return sys, pl.dress(&sys)
}

// bound is a's bounds of an exhaustive check (kit.Spec.Bound): with
// maxClock > 0 the state constraint that every node's Lamport clock stays
// at or below it; a check without end of clocks the checker cannot shift
// is refused without a bound.
func (a algorithm) bound(sys *engine.System, pl kit.Plan, p engine.Params, env engine.Env, requests int) error {
	if !a.clock {
		return nil
	}
	maxClock := p.Int("max-clock")
	switch {
	case maxClock < 0:
		return cliutil.Usagef("--max-clock must not be negative, got %d", maxClock)
	case requests == 0 && maxClock == 0 && env.MaxDepth == 0 && (env.AnyOrder || !(plan{factory: pl.Factory}).shifts()):
		return cliutil.Usagef("--requests 0 (no end) needs --max-clock or --max-depth: the space is infinite%s", a.shiftNote())
	case maxClock > 0:
		sys.Within = func(_ int, nd node.Node) bool { c, ok := clockOf(nd); return !ok || c <= maxClock }
		sys.Bound = fmt.Sprintf("--max-clock %d", maxClock)
	}
	return nil
}

// clocked is a node that keeps a Lamport clock (Lamport's and
// Ricart-Agrawala's): --max-clock bounds it.
type clocked interface{ Clock() int }

// clockOf is node nd's Lamport clock, if it keeps one.
func clockOf(nd node.Node) (int, bool) {
	nd = unwrap(nd)
	c, ok := nd.(clocked)
	if !ok {
		return 0, false
	}
	return c.Clock(), true
}

// shifts reports whether the plan's nodes let the exhaustive checker shift
// their clocks (they declare one, node.Valuer, and the declaration is
// exact): then a run that never ends still has a
// finite space under FIFO links, every state being one of a finite number
// of clock orders.
func (pl plan) shifts() bool {
	nd, err := pl.factory(1)
	if err != nil {
		return false
	}
	f, ok := reduce.Read(nd)
	return ok && f.Exact && len(f.Clocks) > 0
}

// shiftNote says, for an algorithm with clocks, where the clock shift
// would have made the space finite.
func (a algorithm) shiftNote() string {
	if !a.clock {
		return ""
	}
	return " (the checker shifts clocks, which makes it finite, only under --policy fifo and, for Lamport, --clock events)"
}
