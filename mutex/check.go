package mutex

import (
	"fmt"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/reduce"
	"ringlab/mutex/internal/mutexcheck"
	"ringlab/mutex/tokenring"
)

// checkWorkload is the workload of an exhaustive check: each requester
// asks requests times (0: for ever), with no time in between (time is
// not modelled).
func checkWorkload(pl plan, requests int) workload {
	w := newWorkload(pl, max(requests, 1), 0, 0)
	w.forever = requests == 0
	return w
}

// checkSystem is the System the exhaustive checker searches for plan pl:
// each requester's first request, the workload that answers with
// releases and requests (0: for ever), the run's properties, and with
// maxClock > 0 the state constraint that every node's Lamport clock stays
// at or below it.
func checkSystem(name string, pl plan, requests, maxClock int) engine.System {
	sys, _ := newSpec("mutex "+name, pl, checkWorkload(pl, requests))
	sys.Theory = "messages per entry " + pl.theory
	if pl.regen && requests == 0 {
		sys.Properties = append(sys.Properties, &mutexcheck.TokenEventually{Type: tokenring.Msg{}.Type()})
	}
	if requests == 0 {
		sys.Endless = "with --requests 0 no run ends (--requests N ends them)"
		// no run ends, so none is asked to: every cycle would break it
		sys.Properties = slices.DeleteFunc(sys.Properties, func(p check.Property) bool { return p.ID() == check.IDTermination })
	}
	if maxClock > 0 {
		sys.Within = func(_ int, nd node.Node) bool { c, ok := clockOf(nd); return !ok || c <= maxClock }
		sys.Bound = fmt.Sprintf("--max-clock %d", maxClock)
	}
	return sys
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
