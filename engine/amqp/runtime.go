package amqp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/trace"
)

// Runtime is the RabbitMQ runtime as an engine.Runtime: the broker, its
// names and the codec are its own; the nodes, script and workload come
// from the System. It runs every node in this process, or, with Local,
// this process's part of a run whose other nodes are processes of their
// own (`ringlab node`).
type Runtime struct {
	URL   string // the broker: amqp://user:pass@host:port/vhost
	Names Names  // the exchange and queue names of the run (RunNames, RingNames)
	// Codec encodes and decodes the System's messages; nil: the codec of
	// sys.Messages, its message registry.
	Codec   *trace.Codec
	Tick    time.Duration // zero means a millisecond
	Timeout time.Duration // zero: no bound (End TimedOut)
	// RunID is the run's id, carried in every message's headers;
	// messages of another run are dropped. Empty in multi-process runs
	// (their processes share no id: `ringlab amqp setup` empties the
	// queues).
	RunID string
	// Purge empties the run's queues first; Teardown deletes its exchange
	// and queues at the end, however it ends (one-process runs).
	Purge, Teardown bool
	// Lock holds the names for this run alone, on queues exclusive to
	// this process's connection (released when it closes, however the
	// process ends): a one-process run holds Names.Lock, a node process
	// Names.NodeLock of its node. A run whose names are held fails with
	// ErrHeld; a node process whose node lock is taken while the names
	// are its own run's waits for it first: a killed process of its node
	// may hold it until the broker notices.
	Lock bool
	// Messages adds send and recv events; Skip lists kinds the observer
	// does not want (they are not built). The observer is called one event
	// at a time; a watching process's also sees the events other processes
	// report (without Msg.Value), and Local tells them apart.
	Messages bool
	Skip     trace.Kinds
	// Counters, if set, receives the run's broker-level figures, which
	// engine.Result does not carry.
	Counters *Counters

	// Local lists the nodes this process runs; nil means all of them, in
	// one process. With some nodes elsewhere, Watch makes this process the
	// one that decides the end (exactly one process of a run watches); the
	// others end when it says so. The System's script and workload must
	// then act for local nodes only.
	Local []int
	Watch bool
	// RunKey describes a multi-process run (its algorithm and
	// parameters): the first process of a run leaves it in Names.Run,
	// and a process whose RunKey differs fails with ErrHeld. The watcher
	// removes it at the end of the run.
	RunKey string
	// Started, if set, is called once every local node consumes its
	// queue, a watcher holds its role and another process listens for the
	// end, before any node acts.
	Started func()
	// Plain takes a delivery without ringlab's headers as a message of
	// the ring specification's wire (its JSON body alone), sent by the
	// receiving node's predecessor on the ring (node i-1; node N for node
	// 1), the only node that specification lets publish to it. It has no
	// sequence number: it is never dropped as a duplicate. Multi-process
	// runs only (a one-process run's RunID drops it as foreign).
	Plain bool
	// Mixed runs this process's nodes in a run whose other nodes may be
	// other programs that speak only the specification's wire: nobody
	// watches, the process ends once its nodes are done (the algorithm's
	// own end, rules 5 and 6 of the ring election), and it keeps no
	// state for a restart. Watch and RunKey must be unset.
	Mixed bool
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
	res, err := run(ctx, config{
		URL: r.URL, Names: r.Names, Nodes: sys.Nodes, Factory: sys.Factory, Codec: codec,
		Script: sys.Script, Workload: sys.Workload, Tick: r.Tick, Timeout: r.Timeout,
		Run: r.RunID, Purge: r.Purge, Teardown: r.Teardown, Lock: r.Lock,
		Sink: obs, Messages: r.Messages, Skip: r.Skip,
		Local: r.Local, Watch: r.Watch, RunKey: r.RunKey, Started: r.Started,
		Plain: r.Plain, Mixed: r.Mixed,
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
