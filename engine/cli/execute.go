package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// Header is the log header of a run of sys under opts.
func Header(sys *engine.System, opts Options, replay string) *trace.Header {
	return trace.NewHeader(sys.Name, opts.Runtime, sys.Nodes, opts.Seed, sys.Names, sys.Topology, sys.Edges, replay)
}

// Execute runs sys under opts through run.Run, renders it to stdout (and
// the --events file), prints the summary where the run's output does not
// show it, and returns the outcome's typed error (run.Outcome.Err): a
// violated property is exit 3, no termination exit 4, an interruption 130.
func Execute(ctx context.Context, sys engine.System, opts Options, replay string, stdout, stderr io.Writer) (run.Outcome, error) {
	return judgeOrRun(ctx, sys, opts, replay, nil, stdout, stderr)
}

// Judge judges a saved log by the properties of sys, the System of the
// run that wrote it (only those named in only, if any), as the run's own
// command would have judged the run: the verdicts and the summary go to
// stdout, and the error is the outcome's.
func Judge(ctx context.Context, sys engine.System, opts Options, log *run.Log, only []string, stdout, stderr io.Writer) (run.Outcome, error) {
	return judgeOrRun(ctx, sys, opts, log.Replay, &saved{log, only}, stdout, stderr)
}

// judgeOrRun runs sys, or, with rec, judges the log rec holds.
func judgeOrRun(ctx context.Context, sys engine.System, opts Options, replay string, rec *saved, stdout, stderr io.Writer) (run.Outcome, error) {
	switch {
	case opts.DryRun:
		return run.Outcome{}, nil
	case rec != nil: // `ringlab check`: judge a log, print only the verdicts
		opts.Format, opts.Events, opts.Out, opts.SeedDrawn, opts.Serving = "none", "", "", false, Serving{}
		opts.Custom = recorded{rec.log, opts.Runtime}
	case opts.Serving.Addr != "":
		return executeServed(ctx, sys, opts, replay, stdout, stderr)
	}
	if opts.SeedDrawn && opts.Runtime == "sim" { // live runs follow the Go scheduler, not a seed
		fmt.Fprintf(stderr, "seed %d (repeat with: %s)\n", opts.Seed, replay)
	}
	o, err := openOutputs(&sys, opts, stdout, stderr)
	if err != nil {
		return run.Outcome{}, err
	}
	defer o.close()
	fmt.Fprint(o.stdout, opts.Intro)
	sys.Script = withFaults(sys.Script, opts.Script)
	rt, done := opts.runtime(&sys, stderr)
	if opts.Custom != nil {
		rt, done = opts.Custom, func() {}
	}
	ro := run.Options{Seed: opts.Seed, Replay: replay}
	if opts.logged() {
		ro.Renderers, ro.Header = o.rs, Header(&sys, opts, replay)
	}
	if rec != nil {
		ro.Only = rec.only
	}
	out, err := run.Run(ctx, sys, rt, ro)
	done()
	if err != nil {
		return out, restrictErr(err, rec)
	}
	o.summary(&out.Summary, opts, rec != nil)
	if o.err != nil {
		return out, fmt.Errorf("writing the log: %w", o.err)
	}
	return out, out.Err()
}

// withFaults is the run's script: the System's, and the faults the flags
// add. Without faults it is the System's own, shared (the runtimes only
// read it: a million-node election starts a million nodes).
func withFaults(script, faults []node.Action) []node.Action {
	if len(faults) == 0 {
		return script[:len(script):len(script)]
	}
	return append(slices.Clone(script), faults...)
}

// restrictErr makes an unknown --property of `ringlab check` a usage
// error of that flag; other errors pass as they are.
func restrictErr(err error, rec *saved) error {
	var up *run.UnknownProperty
	if rec == nil || !errors.As(err, &up) {
		return err
	}
	return cliutil.FlagUsagef("property", "--property: %v", up.Err)
}

// summary flushes the renderers, having given them the summary, and
// writes the summary as text where the output does not show it: on stderr
// after --format none or --out, on stdout for a check.
func (o *outputs) summary(s *trace.Summary, opts Options, checking bool) {
	for _, r := range o.rs {
		o.keep(r.Flush())
	}
	if opts.Format != "none" && opts.Out == "" {
		return
	}
	w := o.stderr
	if checking {
		w = o.stdout
	}
	tr, _ := trace.NewRenderer("text", w)
	tr = trace.InLang(tr, opts.Lang)
	if hr, ok := tr.(trace.HeaderRenderer); ok {
		_ = hr.Header(&trace.Header{Runtime: opts.Runtime})
	}
	_ = tr.Summary(s)
	_ = tr.Flush()
}
