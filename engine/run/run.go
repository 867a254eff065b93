// Package run runs a System on a Runtime and judges it: every property of
// the System sees every event as it happens, renderers and logs see the
// same events, and the run ends in one Outcome whose Err says, as a typed
// error, what a caller should make of it. It knows nothing of a command
// line: engine/cli turns flags into a Runtime and Options and calls Run.
//
// A saved log is judged the same way, by running the System on a Recorded
// runtime that replays the log's events instead of stepping nodes.
package run

import (
	"context"
	"fmt"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Options are what a run needs besides its System and Runtime.
type Options struct {
	// Renderers see every event (numbered), then the summary; a
	// trace.HeaderRenderer gets Header first. Run does not flush them.
	Renderers []trace.Renderer
	// Header, if set, is the log's header that HeaderRenderers get.
	Header *trace.Header
	// Only restricts the properties judged to these (check.Select's
	// names); none: every property of the System.
	Only []string
	// Seed and Replay go into the summary: the seed the runtime drew its
	// schedule from and the command line that repeats the run.
	Seed   uint64
	Replay string
}

// Outcome is a finished run: what the runtime reported, the summary the
// log ends with (verdicts and figures included), and every violation seen
// at an event.
type Outcome struct {
	Result     engine.Result // what the runtime reported
	Summary    trace.Summary // the closing summary, as the renderers got it
	Violations []trace.Event // the violation events, in the order they were seen
	// Properties are the properties judged, in the System's order.
	Properties []check.Property
	// Owed are the liveness properties (check.Eventually) whose promise is
	// still owed where the run ends: a failed verdict of one is no
	// progress (a deadlock, a request never granted), where a failed
	// verdict of another, or of one whose promises were all kept, is a
	// violation (nodes that took different leaders).
	Owed []check.ID
}

// Run runs sys on rt under opts. The error is the runtime's (the run could
// not be carried out) or a renderer's first write error; what the run
// found is in the Outcome and its Err.
func Run(ctx context.Context, sys engine.System, rt engine.Runtime, opts Options) (Outcome, error) {
	var out Outcome
	props, err := check.Select(properties(sys), opts.Only)
	if err != nil {
		return out, &UnknownProperty{err}
	}
	out.Properties = props
	set := check.NewSet(props...)
	if sys.Names != nil {
		set.SetNames(sys.Names)
	}
	set.SetTimes(rt.Name())
	w := &writer{rs: opts.Renderers}
	w.header(opts.Header)
	ps := newPromises(props)
	res, err := rt.Run(ctx, sys, observer(sys, set, ps, w))
	if err != nil {
		return out, err
	}
	if ctx.Err() != nil { // cancelled as it ended: judged as far as it got
		res.End, res.Why = engine.Interrupted, "interrupted"
	}
	out.Result, out.Violations, out.Owed = res, set.Violations, ps.owed()
	out.Summary = summary(sys, rt, res, opts)
	end := check.End{Terminated: res.End == engine.Quiescent, Why: why(res), Messages: res.Messages, Runtime: rt.Name()}
	if p, ok := rt.(PathEnd); ok {
		p.JudgeEnd(&end)
	}
	out.Summary.Verdicts = set.Finish(end)
	if res.End == engine.Interrupted {
		markInterrupted(out.Summary.Verdicts)
	}
	if sys.Figures != nil {
		out.Summary.Extra = sys.Figures(&out.Summary)
	}
	for _, r := range opts.Renderers {
		w.keep(r.Summary(&out.Summary))
	}
	if w.err != nil {
		return out, fmt.Errorf("writing the log: %w", w.err)
	}
	return out, nil
}

// PathEnd is a Runtime that replays a path or a lasso the exhaustive
// checker chose instead of running a whole run: it says how the path's
// end is judged (check.End's Cut and Refutes), which a Result cannot.
type PathEnd interface {
	engine.Runtime
	// JudgeEnd completes end, which Run made from the Result.
	JudgeEnd(end *check.End)
}

// properties are sys's properties, or termination alone when it lists
// none: every run is at least judged on ending.
func properties(sys engine.System) []check.Property {
	if len(sys.Properties) == 0 {
		return []check.Property{check.Termination{}}
	}
	return sys.Properties
}

// observer judges each event, follows the promises, lets the System's
// own observer count it, and hands it, then the violations it caused, to
// the renderers.
func observer(sys engine.System, set *check.Set, ps promises, w *writer) engine.Observer {
	return func(e *trace.Event) {
		vs := set.Observe(e)
		ps.observe(e)
		if sys.Observe != nil {
			sys.Observe(e)
		}
		if len(w.rs) > 0 {
			w.event(e)
		}
		for i := range vs {
			w.event(&vs[i])
		}
	}
}

// promises follow the promise of every liveness property (a
// check.Eventually) along a run, so that a failed verdict says whether
// the run ended owing it.
type promises struct {
	ids []check.ID
	ps  []check.Promise
}

func newPromises(props []check.Property) promises {
	var p promises
	for _, prop := range props {
		if e, ok := prop.(check.Eventually); ok {
			p.ids, p.ps = append(p.ids, prop.ID()), append(p.ps, e.Promise())
		}
	}
	return p
}

func (p promises) observe(e *trace.Event) {
	for _, pr := range p.ps {
		if pr.Wants().Has(e.Kind) {
			pr.Observe(e)
		}
	}
}

// owed are the properties whose promise is owed now.
func (p promises) owed() []check.ID {
	var ids []check.ID
	for k, pr := range p.ps {
		if pr.Owed() != 0 {
			ids = append(ids, p.ids[k])
		}
	}
	return ids
}

// summary is the last line of the run's log, without its verdicts.
func summary(sys engine.System, rt engine.Runtime, res engine.Result, opts Options) trace.Summary {
	return trace.Summary{
		V: trace.Version, Kind: "summary", Algorithm: sys.Name, Runtime: rt.Name(),
		Seed: opts.Seed, Nodes: sys.Nodes, Time: res.T, Steps: res.Steps,
		Messages: res.Messages, ByType: res.ByType, Dropped: res.Dropped, Duplicated: res.Duplicated,
		Unapplied: res.Unapplied, Replay: opts.Replay,
	}
}

// why says why a run did not end by itself ("" if it did).
func why(res engine.Result) string {
	switch {
	case res.End == engine.Quiescent:
		return ""
	case res.Why != "":
		return res.Why
	}
	return res.End.String()
}

// markInterrupted says in every verdict of an interrupted run that it
// judges the run only up to the interruption.
func markInterrupted(vs []trace.Verdict) {
	for i := range vs {
		if vs[i].Detail == "" {
			vs[i].Detail = "interrupted"
		} else if vs[i].Detail != "interrupted" {
			vs[i].Detail = "interrupted; so far: " + vs[i].Detail
		}
	}
}

// writer numbers the events it hands to the renderers and keeps the first
// write error. It is not safe for concurrent use: runtimes call observers
// one event at a time.
type writer struct {
	rs  []trace.Renderer
	seq int64
	err error
}

func (w *writer) header(h *trace.Header) {
	if h == nil {
		return
	}
	for _, r := range w.rs {
		if hr, ok := r.(trace.HeaderRenderer); ok {
			w.keep(hr.Header(h))
		}
	}
}

func (w *writer) event(e *trace.Event) {
	w.seq++
	e.Seq = w.seq
	for _, r := range w.rs {
		w.keep(r.Event(e))
	}
}

func (w *writer) keep(err error) {
	if err != nil && w.err == nil {
		w.err = err
	}
}
