package kit

import (
	"cmp"
	"encoding/binary"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// The grant order as the exhaustive checker carries it in each state.

var (
	_ check.OrderDependent = (*GrantOrder)(nil)
	_ check.Stamped        = (*GrantOrder)(nil)
	_ check.Filter         = (*GrantOrder)(nil)
)

// Concerns implements check.Filter: a registration (an event Key reads)
// and the events that end a request.
func (g *GrantOrder) Concerns(e *trace.Event) bool {
	switch e.Kind {
	case trace.KindEnterCS, trace.KindCrash, trace.KindRecover:
		return true
	}
	_, _, ok := g.Key(e)
	return ok
}

// Clone returns an independent copy (the exhaustive checker's snapshot).
// The copy shares pending, which is never changed in place.
func (g *GrantOrder) Clone() check.Snapshot {
	c := *g
	c.crashed = slices.Clone(g.crashed)
	return &c
}

// AppendKey encodes what Observe's reports depend on: the crashed nodes
// and the waiting ones, with Arrival in the order they registered (a new
// registration comes after every one of them, so that order is all the
// future compares), otherwise with their keys; and whether a strict
// order was broken, so that the state a grant reaches by overtaking is
// not the one it reaches in order (a violation is a state, as for the
// other properties, and no path's is lost where the two would meet). The
// keys' values and the counts only shape the words of a report and the
// verdict, which the checker takes from a replay of the path.
func (g *GrantOrder) AppendKey(b []byte) []byte {
	broken := byte(0)
	if g.Strict && g.over > 0 {
		broken = 1
	}
	b = g.crashed.AppendKey(append(b, broken))
	b = binary.AppendUvarint(b, uint64(len(g.pending)))
	if g.Arrival {
		var buf [8]waiting
		byKey := append(buf[:0], g.pending...)
		slices.SortFunc(byKey, func(a, b waiting) int { return cmp.Compare(a.key[1], b.key[1]) })
		for _, w := range byKey {
			b = binary.AppendUvarint(b, uint64(w.node))
		}
		return b
	}
	for _, w := range g.pending {
		b = binary.AppendVarint(binary.AppendVarint(binary.AppendUvarint(b, uint64(w.node)), w.key[0]), w.key[1])
	}
	return b
}

// RenameNodes implements check.NodeRenamer for the symmetry reduction:
// the waiting and the crashed nodes are renamed (a key holds no node
// index: a time and a count, or a timestamp and an algorithm's id).
func (g *GrantOrder) RenameNodes(perm []int) {
	ws := make([]waiting, len(g.pending))
	for k, w := range g.pending {
		ws[k] = waiting{perm[w.node], w.key}
	}
	slices.SortFunc(ws, func(a, b waiting) int { return a.node - b.node })
	g.pending = ws
	g.crashed = slices.Clone(g.crashed)
	g.crashed.RenameNodes(perm)
}

// AppendStamps implements check.Stamped: the timestamps of the waiting
// requests' keys (none with Arrival, whose keys are no clocks).
func (g *GrantOrder) AppendStamps(ts []int) []int {
	if g.Arrival {
		return ts
	}
	for _, w := range g.pending {
		ts = append(ts, int(w.key[0]))
	}
	return ts
}

// RenameStamps implements check.Stamped.
func (g *GrantOrder) RenameStamps(rename func(int) int) check.Snapshot {
	c := g.Clone().(*GrantOrder)
	if !g.Arrival {
		c.pending = slices.Clone(c.pending)
		for k := range c.pending {
			c.pending[k].key[0] = int64(rename(int(c.pending[k].key[0])))
		}
	}
	return c
}

// OrderDependent implements check.OrderDependent.
func (*GrantOrder) OrderDependent() {}

// Counted returns g as a property that is no check.Snapshot, for a g that
// is not Strict: it reports no violation, only a count in its verdict,
// so carrying it in the exhaustive checker's states would only multiply
// them (the verdict is then judged on one path to each terminal state).
func Counted(g *GrantOrder) check.Property { return counted{g, g, g, g} }

type counted struct {
	check.Property
	check.Namer
	check.Timer
	check.Wanter
}

// OnlyCounts implements check.Counter: a grant order that promises
// nothing never fails.
func (counted) OnlyCounts() {}
