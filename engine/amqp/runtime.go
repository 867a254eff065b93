package amqp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/trace"
)

// Runtime is the RabbitMQ runtime as an engine.Runtime, every node in this
// process: the broker, its names and the codec are its own; the nodes,
// script and workload come from the System.
type Runtime struct {
	URL   string // the broker: amqp://user:pass@host:port/vhost
	Names Names  // the exchange and queue names of the run (RunNames, RingNames)
	// Codec encodes and decodes the System's messages; nil: the codec of
	// sys.Messages, its message registry.
	Codec   *trace.Codec
	Tick    time.Duration // zero means a millisecond
	Timeout time.Duration // zero: no bound (End TimedOut)
	// RunID is the run's id in every message's headers (Config.Run); Purge, Teardown and
	// Lock are as in Config.
	RunID                 string
	Purge, Teardown, Lock bool
	// Messages adds send and recv events; Skip lists kinds the observer
	// does not want (they are not built). As in Config.
	Messages bool
	Skip     trace.Kinds
	// Counters, if set, receives the run's broker-level figures, which
	// engine.Result does not carry.
	Counters *Counters
}

// Counters are what a run saw of the broker: deliveries dropped as
// already handled or as another run's, and reconnections.
type Counters struct {
	Duplicates, Foreign int64 // deliveries dropped as already handled, or as another run's
	Reconnects          int   // times the connection to the broker was made again
}

// Name is "amqp".
func (Runtime) Name() string { return "amqp" }

// Run runs sys over the broker; see engine.Runtime. An unreachable broker
// is an error.
func (r Runtime) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	codec := r.Codec
	if codec == nil {
		codec = trace.NewCodec(sys.Messages...)
	}
	res, err := Run(ctx, Config{
		URL: r.URL, Names: r.Names, Nodes: sys.Nodes, Factory: sys.Factory, Codec: codec,
		Script: sys.Script, Workload: sys.Workload, Tick: r.Tick, Timeout: r.Timeout,
		Run: r.RunID, Purge: r.Purge, Teardown: r.Teardown, Lock: r.Lock,
		Sink: obs, Messages: r.Messages, Skip: r.Skip,
	})
	if r.Counters != nil {
		*r.Counters = Counters{Duplicates: res.Duplicates, Foreign: res.Foreign, Reconnects: res.Reconnects}
	}
	out := engine.Result{Now: res.Now, T: res.Elapsed.Nanoseconds(), Steps: res.Steps, Messages: res.Messages, ByType: res.ByType, Elapsed: res.Elapsed}
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		if ctx.Err() != nil {
			out.End, out.Why, err = engine.Interrupted, "interrupted", nil
		}
	case res.Quiescent:
		out.End = engine.Quiescent
	case res.Exhausted:
		out.End, out.Why = engine.TimedOut, fmt.Sprintf("still running after %v of wall time", r.Timeout)
	}
	return out, err
}
