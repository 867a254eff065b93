package cli

import (
	"context"
	"fmt"
	"io"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/explore"
	"ringlab/engine/lang"
	"ringlab/engine/run"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// liveReport is the liveness part of a check's report (--liveness).
type liveReport struct {
	Fairness   string   `json:"fairness"`
	Judged     bool     `json:"judged"` // the space was exhausted, so cycles were judged
	Properties []string `json:"properties"`
	Promises   int      `json:"promises"`
	Edges      int64    `json:"edges"`
	SCCs       int64    `json:"sccs"`
	Cyclic     int64    `json:"cyclic_sccs"`
	Candidates int64    `json:"candidates"`
	Seconds    float64  `json:"seconds"`
	GraphBytes int64    `json:"graph_bytes"`
	Cut        string   `json:"cut,omitempty"` // the state constraint that cuts cycles
	Property   string   `json:"property,omitempty"`
	Node       int      `json:"node,omitempty"`
	Detail     string   `json:"detail,omitempty"`
	Prefix     string   `json:"prefix,omitempty"`
	Cycle      string   `json:"cycle,omitempty"`
	Path       string   `json:"path,omitempty"`
	Replay     string   `json:"replay,omitempty"`
	// Stutter says the lasso is the path to a safety violation of a
	// liveness property (no deadlock, a promise) in a terminal state,
	// with the stutter there as its cycle (Property, Detail, Path and
	// Replay are then the violation's).
	Stutter bool `json:"stutter,omitempty"`
	// Bypass is, by property and node name, the most times the node is
	// overtaken while it waits, over every schedule (-1: unbounded).
	Bypass map[string]map[string]int64 `json:"bypass,omitempty"`

	bypass []statespace.Bypass
	name   func(int) string
}

func newLiveReport(sc statespace.Config, res statespace.Result, base string, names func(int) string) *liveReport {
	lr := &liveReport{Fairness: statespace.Fairness, Judged: res.Exhausted && res.Violation == nil, Cut: sc.Bound,
		Promises: res.Live.Promises, Edges: res.Live.Edges, SCCs: res.Live.SCCs, Cyclic: res.Live.Cyclic,
		Candidates: res.Live.Candidates, Seconds: res.Live.Elapsed.Seconds(), GraphBytes: res.Live.GraphBytes}
	if sc.Checks != nil {
		for _, p := range sc.Checks() {
			if _, ok := p.(check.Eventually); ok && (sc.Only == "" || p.ID() == sc.Only) { // --property: that one alone
				lr.Properties = append(lr.Properties, string(p.ID()))
			}
		}
	}
	name := func(i int) string {
		if names != nil {
			return names(i)
		}
		return fmt.Sprintf("node %d", i)
	}
	for _, b := range res.Live.Bypass {
		if lr.Bypass == nil {
			lr.Bypass = map[string]map[string]int64{}
		}
		if lr.Bypass[string(b.Property)] == nil {
			lr.Bypass[string(b.Property)] = map[string]int64{}
		}
		most := b.Most
		if most == statespace.Unbounded {
			most = -1
		}
		lr.Bypass[string(b.Property)][name(b.Node)] = most
	}
	lr.bypass = res.Live.Bypass
	lr.name = name
	if v := res.Violation; v != nil && stutters(sc, res) {
		lr.Stutter, lr.Property, lr.Detail = true, string(v.Property), v.Detail
		lr.Prefix, lr.Path = statespace.FormatPath(res.Path), statespace.FormatPath(res.Path)+"|"
		lr.Replay = base + " --path '" + lr.Path + "'"
	}
	if l := res.Lasso; l != nil {
		who := fmt.Sprintf("node %d", l.Node)
		if names != nil {
			who = names(l.Node)
		}
		lr.Property, lr.Node = string(l.Property), l.Node
		lr.Detail = fmt.Sprintf("a fair cycle of %d steps, reached after %d, on which the promise to %s stays owed for ever",
			len(l.Cycle), len(l.Prefix), who)
		if l.Node == 0 { // a promise to the run as a whole
			lr.Detail = l.Detail
		}
		lr.Prefix, lr.Cycle, lr.Path = statespace.FormatPath(l.Prefix), statespace.FormatPath(l.Cycle), l.String()
		lr.Replay = base + " --path '" + l.String() + "'"
	}
	return lr
}

// stutters reports whether the search's violation is one of a liveness
// property (a check.Eventually: no deadlock) in a state where nothing can
// happen with its promise still owed: under --liveness, an infinite
// behaviour that stays there for ever, a lasso whose cycle is the
// stutter. A liveness property failed there with its promises kept (two
// different leaders) is a plain violation.
func stutters(sc statespace.Config, res statespace.Result) bool {
	if sc.Checks == nil {
		return false
	}
	var promise check.Promise
	for _, p := range sc.Checks() {
		if e, ok := p.(check.Eventually); ok && p.ID() == res.Violation.Property {
			promise = e.Promise()
		}
	}
	if promise == nil {
		return false
	}
	wants := promise.Wants()
	rr, err := statespace.Replay(sc, res.Path, func(e *trace.Event) {
		if wants.Has(e.Kind) {
			promise.Observe(e)
		}
	})
	return err == nil && rr.Terminated && promise.Owed() != 0
}

// writeLive writes the liveness lines of the text report.
func writeLive(w io.Writer, r checkReport) {
	l := r.Live
	switch {
	case len(l.Properties) == 0:
		fmt.Fprintln(w, "liveness: no property of this run says what must eventually happen: nothing judged over cycles")
		return
	case l.Stutter:
		fmt.Fprintf(w, "liveness: the %s violation below ends where nothing can happen: an infinite behaviour that stutters there for ever (TLC's \"stuttering\"), the lasso %s, its cycle the stutter; replay: %s\n",
			l.Property, l.Path, l.Replay)
		return
	case !l.Judged:
		fmt.Fprintln(w, "liveness: not judged over cycles: the space was not exhausted (or a safety violation came first)")
		return
	}
	fmt.Fprintf(w, "liveness: %s judged over %d strongly connected components (%d with a cycle), %d edges kept (%.1f MiB), %d promises, %d candidate components; %.3fs after the search\n",
		joinNames(l.Properties), l.SCCs, l.Cyclic, l.Edges, float64(l.GraphBytes)/(1<<20), l.Promises, l.Candidates, l.Seconds)
	switch {
	case l.Cut != "" && l.Cyclic == 0:
		fmt.Fprintf(w, "liveness: the state constraint %s cut every cycle (none is left within it): the ✓ below is vacuous and says nothing of infinite schedules\n", l.Cut)
	case l.Cut != "":
		fmt.Fprintf(w, "liveness: the state constraint %s cuts every cycle through a state beyond it: a ✓ holds for the schedules within the bound only\n", l.Cut)
	case l.Cyclic == 0:
		fmt.Fprintln(w, "liveness: the graph has no cycle: every schedule ends, so the verdicts where runs end are the whole story")
	}
	if len(l.bypass) > 0 {
		fmt.Fprintf(w, "bypass (over every schedule, the most entries by others while a node waits, from its request to its entry):")
		for k, b := range l.bypass {
			sep := ","
			if k == 0 {
				sep = ""
			}
			most := "unbounded"
			if b.Most != statespace.Unbounded {
				most = fmt.Sprint(b.Most)
			}
			fmt.Fprintf(w, "%s %s %s", sep, l.name(b.Node), most)
		}
		fmt.Fprintln(w)
	}
	if l.Property == "" {
		fmt.Fprintln(w, r.lang.T("check.liveKept", r.lang.Properties(l.Properties)))
	}
}

func joinNames(ns []string) string {
	s := ""
	for k, n := range ns {
		if k > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// reportLasso replays a lasso the search found (in --format text or a
// picture) and returns its violation.
func reportLasso(ctx context.Context, sys engine.System, sc statespace.Config, l *statespace.Lasso, rep checkReport, format string, stdout, stderr io.Writer) error {
	picture := format != "text" && format != "json" && format != "none"
	if format == "text" || picture {
		if format == "text" {
			fmt.Fprintln(stdout)
		}
		err := replayLasso(ctx, sys, sc, l, format, rep.lang, rep.Live.Replay, stdout, stderr)
		if c := cliutil.Code(err); c != cliutil.ExitViolation && c != cliutil.ExitNoTermination && err != nil {
			return err
		}
	}
	return &run.Violation{Property: rep.Live.Property, Detail: rep.Live.Detail, Replay: rep.Live.Replay}
}

// replayLasso runs a lasso, its prefix then one turn of its cycle,
// through Execute: the trace in words or a picture, with the cycle's start
// marked by a note (statespace.CycleNote). One turn ends where it began,
// not by itself, so its end verdicts are not reached; but the cycle
// repeats for ever, so a promise it leaves owed all the way round is the
// lasso's violation (exit 3), as the check's, and the only ✗ it adds.
// The property is the lasso's, or for a lasso given as a --path the
// first whose promise the cycle never keeps (explore.Unkept).
func replayLasso(ctx context.Context, sys engine.System, sc statespace.Config, l *statespace.Lasso, format string, in lang.Lang, replay string, stdout, stderr io.Writer) error {
	rt := run.Path{Config: sc, Steps: l.Prefix, Cycle: slices.Clone(l.Cycle)}
	t, unfair, ferr := explore.UnfairCycle(sc, l.Prefix, l.Cycle)
	unfair = unfair && ferr == nil
	var never []check.ID // nil: any promise owed where the turn ends
	var nerr error
	switch {
	case unfair:
	case l.Property != "" || sc.Liveness:
		names := sys.Names
		if names == nil {
			names = func(i int) string { return fmt.Sprintf("node %d", i) }
		}
		rt.Refutes, rt.Refuted, nerr = explore.Refuted(sc, l.Prefix, l.Cycle, l.Property, names)
		if l.Property != "" {
			nerr = nil
		}
		if rt.Refutes != "" {
			never = []check.ID{rt.Refutes}
		}
	default:
		rt.RefutesOwed = true
	}
	o, err := executePath(ctx, sys, rt, format, in, replay, stdout, stderr)
	if _, ok := err.(*run.NoTermination); ok {
		switch {
		case unfair:
			fmt.Fprintf(stderr, "the cycle is not fair: %s stays enabled all the way round and is never taken, so a fair schedule leaves it: a promise it leaves owed is no liveness violation\n", t)
			return err
		case nerr != nil:
			return nerr
		case sc.Liveness && len(never) == 0:
			return err // every promise is kept on the way round
		}
		violated := func(id string) bool { return never == nil || slices.Contains(never, check.ID(id)) }
		for _, v := range o.Summary.Verdicts {
			if !v.OK && !v.NotReached && violated(v.Property) && slices.ContainsFunc(o.Properties, func(p check.Property) bool {
				_, promise := p.(check.Eventually)
				return promise && string(p.ID()) == v.Property
			}) {
				return &run.Violation{Property: v.Property, Detail: v.Detail, Replay: o.Summary.Replay}
			}
		}
		if len(never) > 0 {
			return &run.Violation{Property: string(never[0]), Replay: o.Summary.Replay, Detail: rt.Refuted}
		}
	}
	if v, ok := err.(*run.Violation); ok && v.Liveness {
		safety := *v
		safety.Liveness = false
		return &safety
	}
	return err
}
