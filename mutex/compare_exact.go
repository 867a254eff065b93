package mutex

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/explore"
	"ringlab/engine/statespace"
	"ringlab/mutex/kit"
)

// exactMaxN is the largest N whose messages per entry compare computes
// over every schedule (the whole state space, one request per process).
const exactMaxN = 3

// exactLimit bounds the state graph of that analysis.
const exactLimit = 1_000_000

// exact is what compare computes over every schedule of one request per
// process: the fewest and most messages per entry (-1 for fewest: not
// computed, no run ends; -1 for most: unbounded), the most entries by
// others while one process waits (-1: not computed), and the most
// messages in flight at once.
type exact struct {
	fewest, most float64
	overtaken    int64
	inFlight     int
}

// exactFigures computes exact for pl over the whole state space without
// reduction (explore.Fates); ok is false when the space is too big.
// The promises of its check.Eventually properties are tracked
// (Config.Liveness) for the wait.
func exactFigures(ctx context.Context, name string, pl plan) (x exact, ok bool) {
	x = exact{fewest: -1, most: -1, overtaken: -1}
	k := pl.kit()
	sys := k.System(name, kit.CheckWorkload(k, 1))
	cfg := statespace.Config{System: engine.System{Nodes: sys.Nodes, Factory: sys.Factory, Script: sys.Script, Workload: sys.Workload},
		Checks: k.Properties, Liveness: true}
	xp, err := explore.NewExplorer(cfg, sys.Names)
	if err != nil {
		return x, false
	}
	f, err := xp.AnalyzeExtremes(ctx, exactLimit)
	if err != nil {
		return x, false
	}
	e, ends := f.Extremes()
	x.inFlight = e.InFlight
	if e.Wait != nil && e.Wait.Most != statespace.Unbounded {
		x.overtaken = e.Wait.Most
	}
	if ends {
		entries := float64(len(pl.requesters))
		x.fewest = float64(e.Fewest) / entries
		if e.Most != statespace.Unbounded {
			x.most = float64(e.Most) / entries
		}
	}
	return x, true
}

// overtakenCell is the table's cell for a row's most overtaken.
func overtakenCell(r row) string {
	if r.Overtaken < 0 {
		return "-"
	}
	return fmt.Sprint(r.Overtaken)
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
