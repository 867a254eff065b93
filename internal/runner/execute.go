package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/node"
	"ringlab/internal/run"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// Spec is what an algorithm command hands to Execute: the algorithm, its
// nodes, the workload, and the properties to check.
type Spec struct {
	Algorithm string // as the summary names it, e.g. "election chang-roberts"
	Nodes     int
	Factory   node.Factory
	Script    []node.Action // the workload's commands (faults from flags are added)
	// Workload answers the nodes' events; React is its plain-function
	// form (engine.ReactFunc). Set one of them, or neither.
	Workload engine.Workload
	React    node.React
	Checks   func() []check.Property // fresh properties for one run
	// Messages lists one value of every message type the nodes may send,
	// under any schedule and fault: the registry the RabbitMQ codec and the
	// log reader decode by.
	Messages []node.Msg
	// NeedMessages makes the runtime emit send/recv events even when nothing
	// is rendered (a checker that follows messages needs them).
	NeedMessages bool
	// Extra adds algorithm figures to the summary (rounds, ids carried, ...).
	Extra func(Outcome) map[string]any
	// Observe, if set, sees every event after the checkers (for figures
	// that Extra reports). Same contract as the runtimes' sinks.
	// ObserveKinds are the kinds it needs; zero means every kind.
	Observe      func(*trace.Event)
	ObserveKinds trace.Kinds
	// Text, if set, replaces the engine's text renderer for --format text
	// (the ring-election specification's own wording, say). stderr is for figures that must not
	// disturb stdout.
	Text func(stdout, stderr io.Writer) trace.Renderer
	// Names gives node i's display name (its role or algorithm id: "N32",
	// "coordinator", "P2"), used alike by the text output, the checkers'
	// verdicts, the log's header and every diagram. Nil: "node I".
	Names func(i int) string
	// Topology is trace.TopoRing, TopoComplete (the default), TopoStar or
	// TopoGraph; Edges lists a graph's undirected edges by node index.
	Topology string
	Edges    [][2]int
	// RingNames makes a run over RabbitMQ use the ring election's own
	// broker names (exchange leader.election.ring, queues node.1..node.N)
	// in place of names prefixed by the algorithm and run id, so that
	// processes written to that specification can join it.
	RingNames bool
	// WireTimestamp puts a timestamp in every message sent over
	// RabbitMQ, as the ring election's specification asks.
	WireTimestamp bool
}

// Header is the log header of a run of spec under opts.
func (s Spec) Header(opts Options, replay string) *trace.Header {
	return trace.NewHeader(s.Algorithm, opts.Runtime, s.Nodes, opts.Seed, s.Names, s.Topology, s.Edges, replay)
}

// wants is the kinds of events the run needs: every kind when they are
// rendered or logged, else what the checkers and Observe need (the
// runtimes do not build the others).
func (s Spec) wants(set *check.Set, opts Options) trace.Kinds {
	if opts.logged() {
		return trace.AllKinds
	}
	k := set.Wants()
	if s.Observe != nil {
		k |= s.ObserveKinds
		if s.ObserveKinds == 0 {
			k = trace.AllKinds
		}
	}
	return k
}

func (s Spec) checkers() []check.Property {
	if s.Checks == nil {
		return []check.Property{check.Termination{}}
	}
	return s.Checks()
}

// Outcome is a finished run.
type Outcome struct {
	Summary    trace.Summary
	Violations []trace.Event
	Terminated bool
}

// Execute runs spec under opts, checks it, renders it to stdout (and the
// --events file), and returns an error carrying the exit code: a violated
// property is exit 3, no termination exit 4, an interruption 130.
func Execute(ctx context.Context, spec Spec, opts Options, replay string, stdout, stderr io.Writer) (Outcome, error) {
	var out Outcome
	rec := recordedFrom(ctx)
	if dryRun(ctx) {
		if rec != nil {
			rec.used = true
		}
		return out, nil
	}
	summaryOut := stderr
	if rec != nil { // `ringlab check`: judge a log, print only the verdicts
		opts.Format, opts.Events, opts.Out, opts.SeedDrawn, opts.Serving, summaryOut = "none", "", "", false, Serving{}, stdout
	}
	if opts.Serving.Addr != "" {
		return executeServed(ctx, spec, opts, replay, stdout, stderr)
	}
	if opts.SeedDrawn && opts.Runtime == "sim" { // live runs follow the Go scheduler, not a seed
		fmt.Fprintf(stderr, "seed %d (repeat with: %s)\n", opts.Seed, replay)
	}
	if _, err := trace.NewRenderer(opts.Format, nil); err != nil {
		return out, cliutil.Usagef("--format: %v", err)
	}
	if opts.Out != "" {
		if opts.Format == "none" {
			return out, cliutil.Usagef("--out: --format none writes nothing to a file")
		}
		f, err := os.Create(opts.Out)
		if err != nil {
			return out, cliutil.Usagef("--out: %v", err)
		}
		defer f.Close()
		stdout = f
	}
	o, err := spec.openOutputs(opts.Format, opts.Events, stdout, stderr)
	if err != nil {
		return out, err
	}
	defer o.close()
	fmt.Fprint(stdout, opts.Intro)
	o.rs = opts.Serving.renderers(o.rs)
	messages := spec.NeedMessages || opts.logged()
	checkers := spec.checkers()
	if rec != nil {
		var rerr error
		if checkers, rerr = restrict(checkers, rec.Properties); rerr != nil {
			return out, rerr
		}
	}
	set := check.NewSet(checkers...)
	if spec.Names != nil {
		set.SetNames(spec.Names)
	}
	set.SetTimes(opts.Runtime)
	if opts.logged() {
		h := spec.Header(opts, replay)
		for _, r := range o.rs {
			if hr, ok := r.(trace.HeaderRenderer); ok {
				if err := hr.Header(h); err != nil {
					return out, fmt.Errorf("writing the log: %w", err)
				}
			}
		}
	}
	skip := trace.AllKinds &^ spec.wants(set, opts)
	sink := func(e *trace.Event) {
		vs := set.Observe(e)
		if spec.Observe != nil {
			spec.Observe(e)
		}
		if opts.logged() {
			o.event(e)
		}
		for i := range vs {
			o.event(&vs[i])
		}
	}

	// The runtimes only read the script: without faults from flags, the
	// spec's own serves (a million-node election starts a million nodes).
	script := spec.Script[:len(spec.Script):len(spec.Script)]
	if len(opts.Script) > 0 {
		script = append(append([]node.Action(nil), spec.Script...), opts.Script...)
	}
	var st stats
	switch {
	case rec != nil:
		st, err = runRecorded(ctx, rec, spec.Messages, sink)
	case opts.Custom != nil:
		var cr CustomResult
		cr, err = opts.Custom(sink)
		st = stats{terminated: cr.Terminated, why: cr.Why, now: cr.Steps, steps: cr.Steps, messages: cr.Messages,
			dropped: cr.Dropped, byType: cr.ByType}
	case opts.Runtime == "live":
		// Live events arrive in one of many orders the run allows: a
		// checker that judges by happens-before gets vector clocks.
		opts.VectorClocks = opts.VectorClocks || set.WantsClocks()
		bar := (*progress)(nil)
		if opts.Format == "none" {
			bar = newProgress(stderr, -1, "nodes")
		}
		st, err = runLive(ctx, spec, opts, script, sink, messages, skip, bar)
		bar.done()
	case opts.Runtime == "amqp":
		st, err = runAMQP(ctx, spec, opts, script, sink, messages, skip, stderr)
	default:
		bar := (*progress)(nil)
		if opts.Format == "none" {
			bar = newProgress(stderr, -1, "steps")
		}
		st, err = runSim(ctx, spec, opts, script, sink, messages, skip, bar)
		bar.done()
	}
	if err != nil && ctx.Err() == nil {
		return out, err
	}

	out.Terminated = st.terminated
	why := ""
	switch {
	case ctx.Err() != nil:
		why = "interrupted"
	case !st.terminated:
		why = st.why
	}
	out.Summary = trace.Summary{
		V: trace.Version, Kind: "summary", Algorithm: spec.Algorithm, Runtime: opts.Runtime,
		Seed: opts.Seed, Nodes: spec.Nodes, Time: st.now, Steps: st.steps,
		Messages: st.messages, ByType: st.byType, Dropped: st.dropped, Duplicated: st.duplicated,
		Unapplied: st.unapplied, Replay: replay,
	}
	out.Summary.Verdicts = set.Finish(check.End{Terminated: st.terminated, Why: why, Messages: st.messages, Runtime: opts.Runtime})
	out.Violations = set.Violations
	if ctx.Err() != nil {
		markInterrupted(out.Summary.Verdicts)
	}
	if spec.Extra != nil {
		out.Summary.Extra = spec.Extra(out)
	}
	for _, r := range o.rs {
		o.keep(r.Summary(&out.Summary))
		o.keep(r.Flush())
	}
	if opts.Format == "none" || opts.Out != "" { // the summary still reaches the user, on stderr (on stdout for a check)
		tr, _ := trace.NewRenderer("text", summaryOut)
		if hr, ok := tr.(trace.HeaderRenderer); ok {
			_ = hr.Header(&trace.Header{Runtime: opts.Runtime})
		}
		_ = tr.Summary(&out.Summary)
		_ = tr.Flush()
	}
	if o.err != nil {
		return out, fmt.Errorf("writing the log: %w", o.err)
	}
	return out, exitError(ctx, out, st.terminated, why, replay)
}

// exitError maps a finished run to its exit code: 130 when interrupted;
// 3 when a property was violated at an event during the run (a safety
// violation is real however the run ended); 4 when the run did not
// terminate (its end-of-run verdicts judge a run cut short, so they do not
// make it 3); 3 when an end-of-run verdict failed; else nil (0).
func exitError(ctx context.Context, out Outcome, terminated bool, why, replay string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for _, v := range out.Summary.Verdicts { // in the checkers' order: safety first
		if !v.OK && slices.ContainsFunc(out.Violations, func(e trace.Event) bool { return e.Property == v.Property }) {
			return &run.Violation{Property: v.Property, Detail: v.Detail, Replay: replay}
		}
	}
	if !terminated {
		return cliutil.NoTerminationf("no termination: %s (replay: %s)", why, replay)
	}
	for _, v := range out.Summary.Verdicts {
		if !v.OK {
			return &run.Violation{Property: v.Property, Detail: v.Detail, Replay: replay}
		}
	}
	return nil
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

// Custom runs a spec on something other than the two runtimes: the
// exhaustive checker's replay of one path (Options.Runtime names it in the
// summary). It reports every event to sink, as a runtime does.
type Custom func(sink func(*trace.Event)) (CustomResult, error)

// CustomResult is what a Custom run reports.
type CustomResult struct {
	Terminated               bool
	Why                      string // why it did not terminate
	Steps, Messages, Dropped int64
	ByType                   map[string]int64
}

// stats is what either runtime reports, in one shape.
type stats struct {
	terminated           bool
	why                  string
	now, steps, messages int64
	dropped, duplicated  int64
	byType               map[string]int64
	unapplied            []string // scripted faults that never happened
}

// system is the engine's description of spec's run with script.
func (s Spec) system(script []node.Action) engine.System {
	return engine.System{
		Name: s.Algorithm, Nodes: s.Nodes, Factory: s.Factory, Messages: s.Messages, Script: script,
		Workload: engine.WorkloadOf(s.Workload, s.React), Names: s.Names, Topology: s.Topology, Edges: s.Edges,
	}
}

// statsOf is what a runtime's Result says, in the summary's shape; now is
// the summary's time (ticks in the simulator, nanoseconds on goroutines).
func statsOf(res engine.Result, now int64) stats {
	return stats{
		terminated: res.End == engine.Quiescent, why: res.Why, now: now, steps: res.Steps, messages: res.Messages,
		dropped: res.Dropped, duplicated: res.Duplicated, byType: res.ByType, unapplied: res.Unapplied,
	}
}

func runSim(ctx context.Context, spec Spec, opts Options, script []node.Action, sink func(*trace.Event), messages bool, skip trace.Kinds, bar *progress) (stats, error) {
	rt := sim.Runtime{
		Seed: opts.Seed, Policy: opts.Policy, Delay: opts.Latency, Faults: opts.Faults, MaxSteps: opts.MaxSteps,
		Timeout: opts.Timeout, Messages: messages, Skip: skip, VectorClocks: opts.VectorClocks, Choices: opts.Schedule,
	}
	if bar != nil {
		rt.Progress = func(r engine.Result) {
			bar.describe(fmt.Sprintf("t=%d", r.Now))
			bar.set(r.Steps)
		}
	}
	res, err := rt.Run(ctx, spec.system(script), sink)
	st := statsOf(res, res.Now)
	switch res.End {
	case engine.Exhausted:
		st.why = fmt.Sprintf("still running after the step budget of %d steps", opts.MaxSteps)
	case engine.TimedOut:
		st.why = fmt.Sprintf("still running after --timeout %v of wall time (t=%d, %d steps)", opts.Timeout, res.Now, res.Steps)
	}
	return st, err
}
