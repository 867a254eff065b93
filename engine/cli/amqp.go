package cli

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/amqp"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/trace"
)

// amqpURL is --url's default: a broker on this machine, as Debian's
// rabbitmq-server starts it.
const amqpURL = amqp.DefaultURL

// checkAMQP rejects --url without --runtime amqp, and a --url that is
// not an AMQP URI (before any connection is tried).
func checkAMQP(c *ucli.Context, o Options) error {
	if c.IsSet("url") && o.Runtime != "amqp" {
		return cliutil.Usagef("--url only applies to --runtime amqp")
	}
	if o.Runtime == "amqp" {
		return checkURL(o.URL)
	}
	return nil
}

// checkURL is --url's validation: a usage error naming the flag, with the
// password masked.
func checkURL(url string) error {
	if err := amqp.CheckURL(url); err != nil {
		return cliutil.Usagef("--url: %v", err)
	}
	return nil
}

// flagText is the text of flag name's value in a command line the run
// writes (its replay line, log header and summary): --url's password is
// masked.
func flagText(name string, v any) string {
	if name == "url" {
		return amqp.Redact(fmt.Sprint(v))
	}
	return fmt.Sprint(v)
}

// BrokerNames are the broker objects a run of algorithm uses: the ring
// election's own names when ring is set (System.RingNames), else names
// prefixed by the algorithm and run id. The environment variable
// RINGLAB_AMQP_PREFIX, if set, prefixes them all, so that several users
// (or test packages) can share one broker.
func BrokerNames(algorithm string, ring bool, runID string) amqp.Names {
	n := amqp.RunNames(algorithm, runID)
	if ring {
		n = amqp.RingNames()
	}
	if p := os.Getenv(EnvPrefix); p != "" {
		n.Exchange, n.Prefix = p+n.Exchange, p+n.Prefix
	}
	return n
}

// EnvPrefix names the environment variable that prefixes broker names.
const EnvPrefix = "RINGLAB_AMQP_PREFIX"

func newRunID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// amqpFailure maps a runtime error: an unreachable broker is exit 1 with
// the library's reason.
func amqpFailure(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("--runtime amqp: %w", err)
}

// NodeOptions are the settings of one node process (`ringlab node`).
type NodeOptions struct {
	Index   int           // the node this process runs
	Watch   bool          // the initiator: its node starts, and its process decides the end and judges the run (one per run; not in a Mixed ring)
	URL     string        // the broker
	Events  string        // write this node's NDJSON log here
	Timeout time.Duration // the run's wall-time bound; zero: none
	Tick    time.Duration // the wall duration of one tick
	Replay  string        // the command line, for the summary
	// RunKey names the run's algorithm and parameters: the processes of
	// one run give the same, and a process of another run is refused.
	RunKey string
	// Mixed: the ring's other nodes may be other programs that speak only
	// the specification's wire (amqp.Runtime.Mixed): no process watches,
	// this one ends when its node's rules end it and judges nothing.
	// Watch then only starts the run, and RunKey is ignored.
	Mixed bool
}

// RemoteSink is implemented by a renderer that wants, besides the events
// of its own node, those other node processes report (the ring election's
// text names the leader in its verdict lines).
type RemoteSink interface {
	// Remote takes an event another node process reported.
	Remote(e *trace.Event)
}

// ExecuteNode runs node no.Index of sys in this process, over the broker,
// with the other nodes in processes of their own. Its text output and
// --events log hold only this node's events; the watching process also
// judges the whole run through run.Run, from every node's reported events,
// and prints the verdicts and the summary. sys.Script is the whole run's:
// this process carries out only its node's actions (a process that does
// not watch, not its start).
func ExecuteNode(ctx context.Context, sys engine.System, no NodeOptions, stdout, stderr io.Writer) (run.Outcome, error) {
	codec := trace.NewCodec(sys.Messages...)
	codec.Timestamp = sys.WireTimestamp
	o, err := openOutputs(&sys, Options{Format: "text", Events: no.Events}, stdout, stderr)
	if err != nil {
		return run.Outcome{}, err
	}
	defer o.close()
	o.header(Header(&sys, Options{Runtime: "amqp"}, no.Replay)) // the log and the text name the nodes, as every run's do
	n := nodeProcess{no: no, o: o, codec: codec}
	script := n.script(sys.Script)
	waiting := ""
	if len(script) == 0 && !n.watches() {
		waiting = waitingFor(&sys, no.Index)
	}
	rt := amqp.Runtime{
		URL: no.URL, Names: BrokerNames(sys.Name, sys.RingNames, "nodes"), Codec: codec, Tick: no.Tick, Timeout: no.Timeout,
		Local: []int{no.Index}, Watch: n.watches(), Messages: true,
		Started: func() {
			n.origin = time.Now().UnixNano()
			if waiting != "" {
				fmt.Fprintf(stderr, "node %d: %s\n", no.Index, waiting)
			}
		},
		Lock: true, RunKey: no.RunKey, Plain: sys.RingNames, Mixed: no.Mixed,
	}
	if no.Mixed {
		rt.RunKey = "" // a mixed ring's other programs claim no run
	}
	local := sys
	local.Script = script
	res, err := rt.Run(ctx, local, n.sink)
	if err := n.failure(ctx, err); err != nil {
		return run.Outcome{}, err
	}
	if !n.watches() {
		return run.Outcome{}, n.unjudged(ctx, res)
	}
	out, err := run.Run(ctx, sys, n.judged(res, ctx.Err() != nil), run.Options{Renderers: []trace.Renderer{violations{&n}}, Replay: no.Replay})
	o.flush()
	if err == nil {
		err = o.writeErr()
	}
	if err != nil {
		return out, err
	}
	return out, out.Err()
}

// unjudged ends the run of a process that does not watch: it judges
// nothing, but says whether its part of the run ended.
func (n *nodeProcess) unjudged(ctx context.Context, res engine.Result) error {
	switch {
	case res.End == engine.Quiescent && n.no.Mixed:
		fmt.Fprintf(n.o.stderr, "node %d: its rules ended it; it sent %d message(s) (a mixed ring: nothing judged)\n", n.no.Index, res.Messages)
	case res.End == engine.Quiescent:
		fmt.Fprintf(n.o.stderr, "node %d: the run is over; this node sent %d message(s)\n", n.no.Index, res.Messages)
	}
	n.o.flush()
	switch {
	case n.o.err != nil:
		return n.o.writeErr()
	case ctx.Err() != nil:
		return ctx.Err()
	case res.End == engine.TimedOut:
		return &run.NoTermination{Why: fmt.Sprintf("still running after --timeout %v", n.no.Timeout), Replay: n.no.Replay}
	case res.End != engine.Quiescent:
		return &run.NoTermination{Replay: n.no.Replay}
	}
	return nil
}

// nodeProcess is one node process's run: its outputs, and the events every
// process reported, which the watcher judges once the run is over.
type nodeProcess struct {
	no     NodeOptions
	o      *outputs
	codec  *trace.Codec
	origin int64 // this process's start (Unix ns): its text writes times from it, its log the wall-clock times the processes share
	// all holds every node's events (the watcher's): reports from
	// different processes arrive in no causal order (a node's exit from
	// the critical section may be reported after the next node's entry),
	// so they are judged at the end in Lamport-clock order, which is
	// causal, as the lc travels in every message.
	all       []trace.Event
	t0        int64 // the run's first event's wall-clock time
	undecoded error // a reported message the registry does not decode
}

// script is the actions of the whole run's script this process carries
// out: its node's, but the start unless it watches.
func (n *nodeProcess) script(all []node.Action) []node.Action {
	var script []node.Action
	for _, a := range all {
		if a.Node == n.no.Index && (n.no.Watch || a.Cmd != node.CmdStart) {
			script = append(script, a)
		}
	}
	return script
}

// sink writes this node's events as they happen (a person watches this
// terminal: each line as it happens), types the messages other processes
// report, and keeps every event for the watcher.
func (n *nodeProcess) sink(e *trace.Event) {
	if e.Node == n.no.Index {
		n.o.nodeEvent(e, n.origin)
		n.o.flush()
	} else {
		if e.Msg != nil && e.Msg.Value == nil { // reported: decode the message again
			m, err := run.DecodeMsg(n.codec, e.Msg)
			if err != nil && n.undecoded == nil {
				n.undecoded = fmt.Errorf("node %d reported %w", e.Node, err)
			}
			e.Msg = m
		}
		if rs, ok := n.o.rs[0].(RemoteSink); ok {
			rs.Remote(e)
		}
	}
	if n.watches() {
		n.all = append(n.all, *e)
	}
}

// watches reports whether this process decides the end and judges the
// run: the initiator's, unless the ring is mixed.
func (n *nodeProcess) watches() bool { return n.no.Watch && !n.no.Mixed }

// failure is the error a node process ends with when the broker run
// failed, or nil.
func (n *nodeProcess) failure(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, amqp.ErrSecondWatcher):
		n.o.close()
		if n.no.Events != "" {
			_ = os.Remove(n.no.Events) // it holds the header only: nothing of a run
		}
		return cliutil.Usagef("--initiator: another process is this run's initiator already, and a run has one (node 1's process by default): start node %d with --initiator=false; the run's other processes were told to end", n.no.Index)
	case errors.Is(err, amqp.ErrAbandoned):
		return cliutil.Usagef("the run was abandoned: a process was started as a second initiator and refused; start the run again with one initiator (node 1's process by default, or the one given --initiator)")
	case err != nil && ctx.Err() == nil:
		return amqpFailure(err)
	}
	return n.undecoded
}

// judged is the finished run as a runtime for run.Run: it hands over
// every node's events in Lamport-clock order, with times from the run's
// first event (the processes' events carry wall-clock times, the one clock
// they share), and ends as the broker run did.
func (n *nodeProcess) judged(res engine.Result, interrupted bool) engine.Runtime {
	slices.SortStableFunc(n.all, func(a, b trace.Event) int {
		return cmp.Or(cmp.Compare(a.LC, b.LC), cmp.Compare(a.Node, b.Node))
	})
	for k := range n.all {
		if k == 0 || n.all[k].T < n.t0 {
			n.t0 = n.all[k].T
		}
	}
	r := engine.Result{Now: res.Now, T: res.Elapsed.Nanoseconds(), Steps: res.Steps, Messages: res.Messages, ByType: res.ByType,
		Elapsed: res.Elapsed, End: engine.Quiescent}
	switch {
	case interrupted:
		r.End, r.Why = engine.Interrupted, "interrupted"
	case res.End == engine.TimedOut:
		r.End, r.Why = engine.TimedOut, fmt.Sprintf("still running after --timeout %v", n.no.Timeout)
	case res.End != engine.Quiescent:
		r.End = engine.Stopped
	}
	return replayed{n.all, n.t0, r}
}

// replayed is a finished run's events as a runtime.
type replayed struct {
	events []trace.Event
	t0     int64
	res    engine.Result
}

func (replayed) Name() string { return "amqp" }

func (r replayed) Run(_ context.Context, _ engine.System, obs engine.Observer) (engine.Result, error) {
	for k := range r.events {
		e := r.events[k]
		e.T -= r.t0
		obs(&e)
	}
	return r.res, nil
}

// violations is the watcher's renderer while it judges: the events are
// written already, as they happened; a violation goes to the log at its
// wall-clock time, and the summary to every output.
type violations struct{ n *nodeProcess }

func (v violations) Event(e *trace.Event) error {
	if e.Kind == trace.KindViolation {
		c := *e
		c.T += v.n.t0
		v.n.o.nodeEvent(&c, v.n.origin)
	}
	return nil
}

func (v violations) Summary(s *trace.Summary) error {
	for _, r := range v.n.o.rs {
		v.n.o.keep(r.Summary(s))
	}
	return nil
}

func (violations) Flush() error { return nil }

// nodeEvent numbers e and writes it to the log with its wall-clock time,
// and to the other renderers with its time from origin (Unix ns).
func (o *outputs) nodeEvent(e *trace.Event, origin int64) {
	o.seq++
	e.Seq = o.seq
	for _, r := range o.rs {
		if r == o.log {
			o.keep(r.Event(e))
			continue
		}
		c := *e
		c.T -= origin
		o.keep(r.Event(&c))
	}
}

// waitingFor is what a node process that has nothing to do until a
// message arrives waits for: on a ring, a message from one of its two
// neighbours (the predecessor, on a one-way ring); elsewhere, any node's.
func waitingFor(sys *engine.System, i int) string {
	n := sys.Nodes
	if sys.Topology != trace.TopoRing || n < 2 {
		return "waiting for a message from another node (the initiator, node 1 by default, starts the run)"
	}
	pred, succ := (i+n-2)%n+1, i%n+1
	if pred == succ {
		return fmt.Sprintf("waiting for a message from node %d, its neighbour on the ring (the initiator, node 1 by default, starts the run)", pred)
	}
	return fmt.Sprintf("waiting for a message from node %d or node %d, its neighbours on the ring (the initiator, node 1 by default, starts the run)", pred, succ)
}
