package mutex

import (
	"context"
	"fmt"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
)

// exactMaxN is the largest N whose messages per entry compare computes
// over every schedule (the whole state space, one request per process).
const exactMaxN = 3

// exactLimit bounds the state graph of that analysis.
const exactLimit = 1_000_000

// exactPerEntry is the fewest and most messages per entry over every
// schedule of pl with one request per process: the whole state space
// without reduction (statespace.Fates), ends divided by the entries.
// ok is false when the space is too big or no run ends; most is -1 when
// a cycle can send for ever.
func exactPerEntry(ctx context.Context, name string, pl plan) (fewest, most float64, ok bool) {
	sys := checkSystem(name, pl, 1, 0)
	cfg := statespace.Config{Nodes: sys.Nodes, Factory: sys.Factory, Script: sys.Script, Workload: sys.Workload,
		Checks: func() []check.Property { return pl.checkers() }}
	x, err := statespace.NewExplorer(cfg, sys.Names)
	if err != nil {
		return 0, 0, false
	}
	f, err := x.Analyze(ctx, exactLimit)
	if err != nil {
		return 0, 0, false
	}
	e, ok := f.Extremes()
	if !ok {
		return 0, 0, false
	}
	entries := float64(len(pl.requesters))
	most = -1
	if e.Most != statespace.Unbounded {
		most = float64(e.Most) / entries
	}
	return float64(e.Fewest) / entries, most, true
}

// exactCell is the table's cell for a row's exact range.
func exactCell(r row) string {
	switch {
	case r.ExactMin < 0:
		return "-"
	case r.ExactMax < 0:
		return num(r.ExactMin) + "..unbounded"
	case r.ExactMin == r.ExactMax:
		return num(r.ExactMin)
	}
	return fmt.Sprintf("%s..%s", num(r.ExactMin), num(r.ExactMax))
}
