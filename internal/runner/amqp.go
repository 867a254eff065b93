package runner

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
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/internal/amqp"
	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/node"
	"ringlab/internal/trace"
)

// amqpURL is --url's default: a broker on this machine, as Debian's
// rabbitmq-server starts it.
const amqpURL = amqp.DefaultURL

// checkAMQP rejects --url without --runtime amqp, and a --url that is
// not an AMQP URI (before any connection is tried).
func checkAMQP(c *cli.Context, o Options) error {
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
// election's own names when ring is set (Spec.RingNames), else names
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

func runAMQP(ctx context.Context, spec Spec, opts Options, script []node.Action, sink func(*trace.Event), messages bool, skip trace.Kinds, stderr io.Writer) (stats, error) {
	id := newRunID()
	codec := amqp.NewCodec(spec.Messages...)
	codec.Timestamp = spec.WireTimestamp
	var c amqp.Counters
	rt := amqp.Runtime{
		URL: opts.URL, Names: BrokerNames(spec.Algorithm, spec.RingNames, id), Codec: codec, Tick: opts.Tick, Timeout: opts.Timeout,
		RunID: id, Purge: true, Teardown: true, Lock: true, Messages: messages, Skip: skip, Counters: &c,
	}
	res, err := rt.Run(ctx, spec.system(script), sink)
	st := statsOf(res, res.Elapsed.Nanoseconds())
	if res.End == engine.TimedOut {
		st.why = fmt.Sprintf("still running after --timeout %v", opts.Timeout)
	}
	if c.Duplicates+c.Foreign > 0 || c.Reconnects > 0 {
		fmt.Fprintf(stderr, "amqp: %d reconnect(s), %d duplicate deliveries dropped, %d of another run dropped\n",
			c.Reconnects, c.Duplicates, c.Foreign)
	}
	return st, amqpFailure(err)
}

// NodeOptions are the settings of one node process (`ringlab node`).
type NodeOptions struct {
	Index   int    // the node this process runs
	Watch   bool   // this process starts the election and judges the run
	URL     string // the broker
	Events  string // write this node's NDJSON log here
	Timeout time.Duration
	Tick    time.Duration
	Replay  string // the command line, for the summary
	// RunKey names the run's algorithm and parameters: the processes of
	// one run give the same, and a process of another run is refused.
	RunKey string
}

// RemoteSink is implemented by a renderer that wants, besides the events
// of its own node, those other node processes report (the ring election's
// text names the leader in its verdict lines).
type RemoteSink interface {
	Remote(e *trace.Event)
}

// ExecuteNode runs node no.Index of spec in this process, over the broker,
// with the other nodes in processes of their own. Its text output and
// --events log hold only this node's events; the watching process also
// checks the whole run, from every node's reported events, and prints the
// verdicts and the summary. spec.Script is the whole run's: this process
// carries out only its node's actions (a process that does not watch, not
// its start).
func ExecuteNode(ctx context.Context, spec Spec, no NodeOptions, stdout, stderr io.Writer) (Outcome, error) {
	var out Outcome
	codec := amqp.NewCodec(spec.Messages...)
	codec.Timestamp = spec.WireTimestamp
	o, err := spec.openOutputs("text", no.Events, stdout, stderr)
	if err != nil {
		return out, err
	}
	defer o.close()
	h := spec.Header(Options{Runtime: "amqp"}, no.Replay)
	for _, r := range o.rs { // the log and the text name the nodes, as every run's do
		if hr, ok := r.(trace.HeaderRenderer); ok {
			if err := hr.Header(h); err != nil {
				return out, fmt.Errorf("writing the log: %w", err)
			}
		}
	}
	// origin is this process's start (Unix ns): its text writes times
	// from it, its log the wall-clock times the processes share
	var origin atomic.Int64
	// fresh checkers, and fresh workload state for the specs that make it
	// there
	var set *check.Set
	if cs := spec.checkers(); no.Watch {
		set = check.NewSet(cs...)
		if spec.Names != nil {
			set.SetNames(spec.Names)
		}
		set.SetTimes("amqp")
	}
	// The watcher judges the run once it is over, from every node's
	// events in Lamport-clock order: reports from different processes
	// arrive in no causal order (a node's exit from the critical section
	// may be reported after the next node's entry), and that order is
	// causal, as the lc travels in every message.
	var all []trace.Event
	var undecoded error // a reported message the registry does not decode
	sink := func(e *trace.Event) {
		if e.Node == no.Index {
			o.nodeEvent(e, origin.Load())
			o.flush() // a person watches this terminal: each line as it happens
		} else {
			if e.Msg != nil && e.Msg.Value == nil { // reported: decode the message again
				m, err := decodeMsg(codec, e.Msg)
				if err != nil && undecoded == nil {
					undecoded = fmt.Errorf("node %d reported %w", e.Node, err)
				}
				e.Msg = m
			}
			if rs, ok := o.rs[0].(RemoteSink); ok {
				rs.Remote(e)
			}
		}
		if no.Watch {
			all = append(all, *e)
		}
	}
	var script []node.Action
	for _, a := range spec.Script {
		if a.Node == no.Index && (no.Watch || a.Cmd != node.CmdStart) {
			script = append(script, a)
		}
	}
	waiting := ""
	if len(script) == 0 && !no.Watch {
		waiting = waitingFor(spec, no.Index)
	}
	res, err := amqp.Run(ctx, amqp.Config{
		URL: no.URL, Names: BrokerNames(spec.Algorithm, spec.RingNames, "nodes"), Nodes: spec.Nodes, Factory: spec.Factory,
		Codec: codec, Script: script, Workload: engine.WorkloadOf(spec.Workload, spec.React), Tick: no.Tick, Timeout: no.Timeout,
		Local: []int{no.Index}, Watch: no.Watch, Sink: sink, Messages: true,
		Started: func() {
			origin.Store(time.Now().UnixNano())
			if waiting != "" {
				fmt.Fprintf(stderr, "node %d: %s\n", no.Index, waiting)
			}
		},
		Lock: true, RunKey: no.RunKey,
	})
	switch {
	case errors.Is(err, amqp.ErrSecondWatcher):
		o.close()
		if no.Events != "" {
			_ = os.Remove(no.Events) // it holds the header only: nothing of a run
		}
		return out, cliutil.Usagef("--initiator: another process is this run's initiator already, and a run has one (node 1's process by default): start node %d with --initiator=false; the run's other processes were told to end", no.Index)
	case errors.Is(err, amqp.ErrAbandoned):
		return out, cliutil.Usagef("the run was abandoned: a process was started as a second initiator and refused; start the run again with one initiator (node 1's process by default, or the one given --initiator)")
	case err != nil && ctx.Err() == nil:
		return out, amqpFailure(err)
	case undecoded != nil:
		return out, undecoded
	}
	out.Terminated = res.Quiescent
	why := ""
	switch {
	case ctx.Err() != nil:
		why = "interrupted"
	case res.Exhausted:
		why = fmt.Sprintf("still running after --timeout %v", no.Timeout)
	}
	replay := no.Replay
	out.Summary = trace.Summary{V: trace.Version, Kind: "summary", Algorithm: spec.Algorithm, Runtime: "amqp",
		Nodes: spec.Nodes, Time: res.Elapsed.Nanoseconds(), Steps: res.Steps, Messages: res.Messages,
		ByType: res.ByType, Replay: replay}
	if set != nil {
		slices.SortStableFunc(all, func(a, b trace.Event) int {
			return cmp.Or(cmp.Compare(a.LC, b.LC), cmp.Compare(a.Node, b.Node))
		})
		// The processes' events carry wall-clock times (Unix ns, the one
		// clock they share); the checkers judge times from the run's
		// first event, as a one-process run's, and the log keeps the
		// wall-clock time of each violation.
		var t0 int64
		for k := range all {
			if k == 0 || all[k].T < t0 {
				t0 = all[k].T
			}
		}
		for k := range all {
			e := &all[k]
			e.T -= t0
			vs := set.Observe(e)
			if spec.Observe != nil {
				spec.Observe(e)
			}
			for i := range vs {
				vs[i].T += t0
				o.nodeEvent(&vs[i], origin.Load())
			}
		}
		out.Summary.Verdicts = set.Finish(check.End{Terminated: res.Quiescent, Why: why, Messages: res.Messages, Runtime: "amqp"})
		out.Violations = set.Violations
		if spec.Extra != nil {
			out.Summary.Extra = spec.Extra(out)
		}
		for _, r := range o.rs {
			o.keep(r.Summary(&out.Summary))
		}
	} else if res.Quiescent {
		fmt.Fprintf(stderr, "node %d: the run is over; this node sent %d message(s)\n", no.Index, res.Messages)
	}
	o.flush()
	if o.err != nil {
		return out, fmt.Errorf("writing the log: %w", o.err)
	}
	return out, exitError(ctx, out, res.Quiescent, why, replay)
}

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

// decodeMsg types a message read back as JSON (from a log, or from
// another node process's report) through the algorithm's registry; a
// message that already holds its value is returned as it is.
func decodeMsg(codec *amqp.Codec, m *trace.Msg) (*trace.Msg, error) {
	if m == nil || m.Value != nil {
		return m, nil
	}
	b, err := m.JSON()
	if err == nil {
		var v node.Msg
		if v, err = codec.Decode(b); err == nil {
			return trace.WrapMsg(v), nil
		}
	}
	return m, err
}

// waitingFor is what a node process that has nothing to do until a
// message arrives waits for: on a ring, a message from one of its two
// neighbours (the predecessor, on a one-way ring); elsewhere, any node's.
func waitingFor(spec Spec, i int) string {
	n := spec.Nodes
	if spec.Topology != trace.TopoRing || n < 2 {
		return "waiting for a message from another node (the initiator, node 1 by default, starts the run)"
	}
	pred, succ := (i+n-2)%n+1, i%n+1
	if pred == succ {
		return fmt.Sprintf("waiting for a message from node %d, its neighbour on the ring (the initiator, node 1 by default, starts the run)", pred)
	}
	return fmt.Sprintf("waiting for a message from node %d or node %d, its neighbours on the ring (the initiator, node 1 by default, starts the run)", pred, succ)
}
