package cli

import (
	"context"
	"fmt"
	"io"

	"ringlab/engine"
	"ringlab/engine/statespace"
)

// extremesLimit bounds the graph --extremes analyses (without the
// partial-order reduction, every state and edge kept).
const extremesLimit = 2_000_000

// extremesReport is the fewest and most messages over every schedule, in
// a check's JSON report.
type extremesReport struct {
	Fewest     int64  `json:"fewest"`
	Most       int64  `json:"most"` // -1: unbounded (a cycle sends)
	FewestPath string `json:"fewest_path"`
	MostPath   string `json:"most_path,omitempty"`
	States     int    `json:"states"`
}

// extremes analyses the whole graph of sc (Fates) and returns the fewest
// and most messages a complete run sends, with the paths that attain
// them; nil, with a note on w, if the graph is too big or no run ends.
func extremes(ctx context.Context, sys engine.System, sc statespace.Config, w io.Writer) *extremesReport {
	x, err := statespace.NewExplorer(sc, sys.Names)
	if err != nil {
		fmt.Fprintf(w, "messages over every schedule: not computed: %v\n", err)
		return nil
	}
	f, err := x.Analyze(ctx, extremesLimit)
	if err != nil {
		fmt.Fprintf(w, "messages over every schedule: not computed: %v\n", err)
		return nil
	}
	e, ok := f.Extremes()
	if !ok {
		fmt.Fprintf(w, "messages over every schedule: no run ends\n")
		return nil
	}
	r := &extremesReport{Fewest: e.Fewest, Most: e.Most, FewestPath: statespace.FormatPath(e.FewestPath),
		MostPath: statespace.FormatPath(e.MostPath), States: f.States}
	if e.Most == statespace.Unbounded {
		r.Most = -1
	}
	return r
}

// writeExtremes writes the text lines of r.
func writeExtremes(w io.Writer, r *extremesReport) {
	fmt.Fprintf(w, "messages over every schedule (%d states, no reduction): fewest %d, path %s\n", r.States, r.Fewest, r.FewestPath)
	if r.Most < 0 {
		fmt.Fprintf(w, "messages over every schedule: most unbounded (a cycle sends)\n")
		return
	}
	fmt.Fprintf(w, "messages over every schedule: most %d, path %s\n", r.Most, r.MostPath)
}
