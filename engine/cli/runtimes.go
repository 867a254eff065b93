package cli

import (
	"context"
	"fmt"
	"io"

	"ringlab/engine"
	"ringlab/engine/amqp"
	"ringlab/engine/check"
	"ringlab/engine/live"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// runtime is the Runtime the flags ask for, set up for sys: it builds only
// the kinds of events that are logged or that sys needs, and gives vector
// clocks to the live runtime when a property judges by happens-before
// (live events arrive in one of many orders the run allows). done ends
// its progress bar, if it has one.
func (o Options) runtime(sys *engine.System, stderr io.Writer) (rt engine.Runtime, done func()) {
	wants := trace.AllKinds
	if !o.logged() {
		wants = sys.Wants()
	}
	messages := wants&trace.KindsOf(trace.KindSend, trace.KindRecv, trace.KindDrop, trace.KindDup) != 0
	skip := trace.AllKinds &^ wants
	bar := (*progress)(nil)
	switch o.Runtime {
	case "live":
		if o.Format == "none" {
			bar = newProgress(stderr, -1, "nodes")
		}
		r := live.Runtime{Scheduler: o.Scheduler, Tick: o.Tick, Timeout: o.Timeout, Messages: messages, Skip: skip,
			VectorClocks: o.VectorClocks || check.NewSet(sys.Properties...).WantsClocks()}
		if bar != nil {
			r.Progress = func(p live.Progress) {
				bar.describe(fmt.Sprintf("%d in flight, nodes not done", p.InFlight))
				bar.set(p.NotDone)
			}
		}
		return worded{r, o}, bar.done
	case "amqp":
		id := newRunID()
		codec := trace.NewCodec(sys.Messages...)
		codec.Timestamp = sys.WireTimestamp
		r := amqpRuntime{amqp.Runtime{URL: o.URL, Names: BrokerNames(sys.Name, sys.RingNames, id), Codec: codec, Tick: o.Tick,
			Timeout: o.Timeout, RunID: id, Purge: true, Teardown: true, Lock: true, Messages: messages, Skip: skip}, stderr}
		return worded{r, o}, func() {}
	}
	if o.Format == "none" {
		bar = newProgress(stderr, -1, "steps")
	}
	r := sim.Runtime{Seed: o.Seed, Policy: o.Policy, Delay: o.Latency, Faults: o.Faults, MaxSteps: o.MaxSteps,
		Timeout: o.Timeout, Messages: messages, Skip: skip, VectorClocks: o.VectorClocks, Choices: o.Schedule}
	if bar != nil {
		r.Progress = func(r engine.Result) {
			bar.describe(fmt.Sprintf("t=%d", r.Now))
			bar.set(r.Steps)
		}
	}
	return worded{r, o}, bar.done
}

// worded says why a run did not end in the words of the flags that bound
// it ("still running after --timeout 1m0s").
type worded struct {
	engine.Runtime
	o Options
}

func (w worded) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	res, err := w.Runtime.Run(ctx, sys, obs)
	switch {
	case res.End == engine.Exhausted && w.o.Runtime == "sim":
		res.Why = fmt.Sprintf("still running after the step budget of %d steps", w.o.MaxSteps)
	case res.End == engine.TimedOut && w.o.Runtime == "sim":
		res.Why = fmt.Sprintf("still running after --timeout %v of wall time (t=%d, %d steps)", w.o.Timeout, res.Now, res.Steps)
	case res.End == engine.TimedOut:
		res.Why = fmt.Sprintf("still running after --timeout %v", w.o.Timeout)
	}
	return res, err
}

// amqpRuntime reports what the broker made the run do twice or drop, and
// names the runtime in a failure.
type amqpRuntime struct {
	amqp.Runtime
	stderr io.Writer
}

func (a amqpRuntime) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	var c amqp.Counters
	a.Runtime.Counters = &c
	res, err := a.Runtime.Run(ctx, sys, obs)
	if c.Duplicates+c.Foreign > 0 || c.Reconnects > 0 {
		fmt.Fprintf(a.stderr, "amqp: %d reconnect(s), %d duplicate deliveries dropped, %d of another run dropped\n",
			c.Reconnects, c.Duplicates, c.Foreign)
	}
	return res, amqpFailure(err)
}
