package sim

import (
	"context"
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/trace"
)

// Runtime is the simulator as an engine.Runtime. Its fields are the
// simulator's own knobs; what belongs to the algorithm (nodes, factory,
// script, workload) comes from the System. The zero value is a valid
// runtime: seed 0, per-link FIFO, one tick per message, no faults.
type Runtime struct {
	Seed     uint64 // the seed of every random choice: one seed, one run
	Policy   Policy // the delivery order: PolicyFIFO or PolicyRandom
	Delay    Delay  // zero means {1, 1}
	Faults   Faults // drops, duplicates, partitions and slow links
	MaxSteps int64  // step budget; zero means DefaultMaxSteps
	// Timeout bounds the run's wall time (End TimedOut); zero: no bound.
	Timeout time.Duration
	// Messages adds send/recv/drop/dup events (off for huge silent
	// runs); Skip lists kinds the observer does not want (they are not
	// built at all); VectorClocks adds vc to every event, at O(n) per
	// event.
	Messages     bool
	Skip         trace.Kinds
	VectorClocks bool
	// Stop, if set, is asked after every step; true ends the run (End
	// Stopped).
	Stop func() bool
	// Choices, when not nil, replaces the random source: every random
	// decision (a latency, a drop, a duplicate) takes the next value, and
	// 0 once they run out (0 is always the benign choice: minimum latency,
	// no drop, no duplicate). That is how a schedule Explore shrank
	// replays.
	Choices []int64
	// Progress, if set, is called every few thousand steps with the
	// figures so far.
	Progress func(engine.Result)
	// Unoptimized turns the simulator's speed-ups off (prefetch.go,
	// fastpath.go), for the benchmark that measures what they pay: the
	// run is the same, only slower.
	Unoptimized bool
}

// Name is "sim".
func (Runtime) Name() string { return "sim" }

// Run runs sys on the simulator; see engine.Runtime. The observer is
// called from Run's own goroutine.
func (r Runtime) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	start := time.Now()
	cfg := r.config(sys, obs)
	cfg.Cancel = ctx.Done()
	if r.Timeout > 0 {
		cfg.Deadline = start.Add(r.Timeout)
	}
	if r.Progress != nil {
		cfg.Progress = func(res result) { r.Progress(res.engine()) }
	}
	res, err := run(cfg)
	out := res.engine()
	out.Elapsed = time.Since(start)
	switch out.End {
	case engine.Exhausted:
		budget := r.MaxSteps
		if budget <= 0 {
			budget = DefaultMaxSteps
		}
		out.Why = fmt.Sprintf("still running after the step budget of %d steps", budget)
	case engine.TimedOut:
		out.Why = fmt.Sprintf("still running after %v of wall time (t=%d, %d steps)", r.Timeout, out.Now, out.Steps)
	case engine.Stopped:
		out.Why = "stopped"
	case engine.Interrupted:
		out.Why = "interrupted"
	}
	return out, err
}

// config is the run of sys on r, its events to obs.
func (r Runtime) config(sys engine.System, obs engine.Observer) config {
	return config{
		Nodes: sys.Nodes, Factory: sys.Factory, Script: sys.Script, Workload: sys.Workload,
		Seed: r.Seed, Policy: r.Policy, Delay: r.Delay, Faults: r.Faults, MaxSteps: r.MaxSteps,
		Sink: obs, Messages: r.Messages, Skip: r.Skip, VectorClocks: r.VectorClocks,
		Stop: r.Stop, Choices: r.Choices, Unoptimized: r.Unoptimized,
	}
}

// engine is res in the shape every runtime reports.
func (res result) engine() engine.Result {
	out := engine.Result{
		Now: res.Now, T: res.Now, Steps: res.Steps, Messages: res.Messages, ByType: res.ByType,
		Dropped: res.Dropped, Duplicated: res.Duplicated, Unapplied: res.Unapplied,
	}
	switch {
	case res.Quiescent:
		out.End = engine.Quiescent
	case res.Stopped:
		out.End = engine.Stopped
	case res.Exhausted:
		out.End = engine.Exhausted
	case res.TimedOut:
		out.End = engine.TimedOut
	case res.Interrupted:
		out.End = engine.Interrupted
	}
	return out
}
