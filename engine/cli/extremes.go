package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// extremesLimit bounds the graph --extremes analyses (without the
// partial-order reduction, every state and edge kept).
const extremesLimit = 2_000_000

// By default (no --extremes flag) a check analyses the extremes when its
// search found at most extremesSmall distinct states, and gives up
// quietly past extremesSmallLimit states without reduction: a second pass
// of at most a few tenths of a second.
const (
	extremesSmall      = 20_000
	extremesSmallLimit = 100_000
)

// extremesWanted is the number of states the extremes' analysis may
// take after the search res (0: none): only after an exhausted search
// without a violation or a lasso; --extremes asks for it up to
// extremesLimit, --extremes=false never, and by default when the search
// was small.
func extremesWanted(c *ucli.Context, res statespace.Result) int {
	switch {
	case !res.Exhausted || res.Violation != nil || res.Lasso != nil:
		return 0
	case c.IsSet("extremes") && c.Bool("extremes"):
		return extremesLimit
	case c.IsSet("extremes") || res.Distinct > extremesSmall:
		return 0
	}
	return extremesSmallLimit
}

// extremesReport is the extremes over every schedule, in a check's JSON
// report. A count of -1 is unbounded (a cycle sends, or overtakes).
type extremesReport struct {
	States int `json:"states"`
	// RunsEnd is false on an infinite workload: no run ends, and the
	// totals (fewest, most, by type) are left out.
	RunsEnd    bool         `json:"runs_end"`
	Fewest     int64        `json:"fewest"`
	Most       int64        `json:"most"`
	FewestPath string       `json:"fewest_path,omitempty"`
	MostPath   string       `json:"most_path,omitempty"`
	ByType     []typeReport `json:"by_type,omitempty"`
	// InFlight is the most messages in flight in a reachable state,
	// OnLink the most on one link (Link: "P1->P2"), each with a
	// shortest path to such a state.
	InFlight     int    `json:"most_in_flight"`
	InFlightPath string `json:"most_in_flight_path"`
	OnLink       int    `json:"most_on_a_link"`
	Link         string `json:"link,omitempty"`
	OnLinkPath   string `json:"most_on_a_link_path"`
	// Wait is the longest wait in entries by others (check.Eventually
	// promises); PerEntry the messages per entry over cycles.
	Wait     *waitReport     `json:"longest_wait,omitempty"`
	PerEntry *perEntryReport `json:"per_entry_over_cycles,omitempty"`
	Theory   string          `json:"theory,omitempty"`
}

// typeReport is the fewest and most messages of one type.
type typeReport struct {
	Type       string `json:"type"`
	Fewest     int64  `json:"fewest"`
	Most       int64  `json:"most"`
	FewestPath string `json:"fewest_path"`
	MostPath   string `json:"most_path,omitempty"`
}

// waitReport is explore.Wait with the node named.
type waitReport struct {
	Property string `json:"property"`
	Node     string `json:"node"`
	Most     int64  `json:"most_overtaken"`
	Start    int    `json:"wait_starts_after,omitempty"`
	Path     string `json:"path,omitempty"`
}

// perEntryReport is explore.PerEntry: each ratio as a number and as
// its exact fraction, with a lasso ('PREFIX|CYCLE') that attains it.
type perEntryReport struct {
	Fewest      float64 `json:"fewest"`
	FewestRatio string  `json:"fewest_ratio"`
	FewestPath  string  `json:"fewest_path"`
	Most        float64 `json:"most"`
	MostRatio   string  `json:"most_ratio,omitempty"`
	MostPath    string  `json:"most_path,omitempty"`
}

// extremes analyses the whole graph of sc (Fates), up to limit states,
// and returns the extremes over every schedule, with the paths that
// attain them; nil if the graph is too big (with a note on w when asked
// for). The promises of the check.Eventually properties are tracked for
// the wait and the messages per entry.
func extremes(ctx context.Context, sys engine.System, sc statespace.Config, limit int, asked bool, w io.Writer) *extremesReport {
	sc.Liveness = true
	x, err := explore.NewExplorer(sc, sys.Names)
	if err != nil {
		fmt.Fprintf(w, "over every schedule: not computed: %v\n", err)
		return nil
	}
	f, err := x.AnalyzeExtremes(ctx, limit)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(w, "over every schedule: interrupted, not computed\n")
		return nil
	}
	if err != nil {
		if asked {
			fmt.Fprintf(w, "over every schedule: not computed: %v\n", err)
		}
		return nil
	}
	name := sys.Names
	if name == nil {
		name = func(i int) string { return fmt.Sprintf("node %d", i) }
	}
	e, ends := f.Extremes()
	r := &extremesReport{States: f.States, RunsEnd: ends, Theory: sys.Theory,
		InFlight: e.InFlight, InFlightPath: statespace.FormatPath(e.InFlightPath),
		OnLink: e.OnLink, OnLinkPath: statespace.FormatPath(e.OnLinkPath)}
	if e.OnLink > 0 {
		r.Link = name(e.From) + "->" + name(e.To)
	}
	if ends {
		r.Fewest, r.Most = e.Fewest, unbounded(e.Most)
		r.FewestPath, r.MostPath = statespace.FormatPath(e.FewestPath), statespace.FormatPath(e.MostPath)
		for _, t := range e.ByType {
			r.ByType = append(r.ByType, typeReport{Type: t.Type, Fewest: t.Fewest, Most: unbounded(t.Most),
				FewestPath: statespace.FormatPath(t.FewestPath), MostPath: statespace.FormatPath(t.MostPath)})
		}
	}
	if wt := e.Wait; wt != nil {
		r.Wait = &waitReport{Property: string(wt.Property), Node: name(wt.Node), Most: unbounded(wt.Most), Start: wt.Start}
		if wt.Path != nil {
			r.Wait.Path = statespace.FormatPath(wt.Path)
		}
	}
	if pe, ok := f.PerEntry(); ok {
		r.PerEntry = &perEntryReport{Fewest: float64(pe.FewestMsgs) / float64(pe.FewestEntries),
			FewestRatio: fmt.Sprintf("%d/%d", pe.FewestMsgs, pe.FewestEntries),
			FewestPath:  statespace.FormatLasso(pe.FewestPrefix, pe.FewestCycle), Most: -1}
		if pe.MostMsgs != statespace.Unbounded {
			r.PerEntry.Most = float64(pe.MostMsgs) / float64(pe.MostEntries)
			r.PerEntry.MostRatio = fmt.Sprintf("%d/%d", pe.MostMsgs, pe.MostEntries)
			r.PerEntry.MostPath = statespace.FormatLasso(pe.MostPrefix, pe.MostCycle)
		}
	}
	return r
}

// unbounded is n, or -1 for statespace.Unbounded.
func unbounded(n int64) int64 {
	if n == statespace.Unbounded {
		return -1
	}
	return n
}

// writeExtremes writes the text lines of r.
func writeExtremes(w io.Writer, r *extremesReport) {
	fmt.Fprintf(w, "over every schedule (%d states, without partial-order reduction):\n", r.States)
	if r.Theory != "" {
		fmt.Fprintf(w, "  theory: %s\n", r.Theory)
	}
	switch {
	case !r.RunsEnd:
		fmt.Fprintf(w, "  messages: no run ends, so no total\n")
	case r.Most == r.Fewest:
		fmt.Fprintf(w, "  messages: %d on every schedule, path %s\n", r.Fewest, r.FewestPath)
	default:
		fmt.Fprintf(w, "  messages: fewest %d, path %s\n", r.Fewest, r.FewestPath)
		if r.Most < 0 {
			fmt.Fprintf(w, "  messages: most unbounded (a cycle sends)\n")
		} else {
			fmt.Fprintf(w, "  messages: most %d, path %s\n", r.Most, r.MostPath)
		}
	}
	if len(r.ByType) > 0 {
		var counts []string
		for _, t := range r.ByType {
			switch {
			case t.Most == t.Fewest:
				counts = append(counts, fmt.Sprintf("%s %d", t.Type, t.Fewest))
			case t.Most < 0:
				counts = append(counts, fmt.Sprintf("%s %d..unbounded", t.Type, t.Fewest))
			default:
				counts = append(counts, fmt.Sprintf("%s %d..%d", t.Type, t.Fewest, t.Most))
			}
		}
		fmt.Fprintf(w, "  by type: %s\n", strings.Join(counts, ", "))
		for _, t := range r.ByType {
			if t.Most != t.Fewest {
				most := "unbounded (a cycle sends it)"
				if t.Most >= 0 {
					most = fmt.Sprintf("%d, path %s", t.Most, t.MostPath)
				}
				fmt.Fprintf(w, "  %s: fewest %d, path %s; most %s\n", t.Type, t.Fewest, t.FewestPath, most)
			}
		}
	}
	if pe := r.PerEntry; pe != nil {
		switch {
		case pe.Most == pe.Fewest:
			fmt.Fprintf(w, "  messages per entry, over every cycle with an entry (fair or not): %s = %s on every one, cycle '%s'\n", num(pe.Fewest), pe.FewestRatio, pe.FewestPath)
		case pe.Most < 0:
			fmt.Fprintf(w, "  messages per entry, over every cycle with an entry (fair or not): fewest %s = %s, cycle '%s'\n", num(pe.Fewest), pe.FewestRatio, pe.FewestPath)
			fmt.Fprintf(w, "  messages per entry: most unbounded (a cycle sends and nobody enters)\n")
		default:
			fmt.Fprintf(w, "  messages per entry, over every cycle with an entry (fair or not): fewest %s = %s, cycle '%s'\n", num(pe.Fewest), pe.FewestRatio, pe.FewestPath)
			fmt.Fprintf(w, "  messages per entry: most %s = %s, cycle '%s'\n", num(pe.Most), pe.MostRatio, pe.MostPath)
		}
	}
	fmt.Fprintf(w, "  most in flight: %d, path %s\n", r.InFlight, r.InFlightPath)
	if r.OnLink > 0 {
		fmt.Fprintf(w, "  most on one link: %d on %s, path %s\n", r.OnLink, r.Link, r.OnLinkPath)
	}
	if wt := r.Wait; wt != nil {
		if wt.Most < 0 {
			fmt.Fprintf(w, "  longest wait (%s): %s overtaken without bound: a cycle keeps the promise to others while %s's stays owed (fair or not)\n", wt.Property, wt.Node, wt.Node)
		} else {
			fmt.Fprintf(w, "  longest wait (%s): %s overtaken %d times (promises kept to others while %s's was owed), path %s, waiting after step %d\n",
				wt.Property, wt.Node, wt.Most, wt.Node, wt.Path, wt.Start)
		}
	}
}

// num prints a ratio with at most two decimals, without trailing zeros.
func num(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
