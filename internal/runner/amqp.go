package runner

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"ringlab/internal/amqp"
	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/node"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// amqpURL is --url's default: a broker on this machine, as Debian's
// rabbitmq-server starts it.
const amqpURL = amqp.DefaultURL

// RingAlgorithm is the algorithm whose runs use the ring election's own
// broker names and message format (exchange leader.election.ring, queues
// node.1..node.N, a timestamp in every message).
const RingAlgorithm = "election ring"

// checkAMQP rejects --url without --runtime amqp.
func checkAMQP(c *cli.Context, o Options) error {
	if c.IsSet("url") && o.Runtime != "amqp" {
		return cliutil.Usagef("--url only applies to --runtime amqp")
	}
	return nil
}

// BrokerNames are the broker objects a run of algorithm uses: the ring
// election's own names, or names prefixed by the algorithm and run id.
// The environment variable RINGLAB_AMQP_PREFIX, if set, prefixes them all,
// so that several users (or test packages) can share one broker.
func BrokerNames(algorithm, runID string) amqp.Names {
	n := amqp.RunNames(algorithm, runID)
	if algorithm == RingAlgorithm {
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
	names := BrokerNames(spec.Algorithm, id)
	codec := amqp.NewCodec()
	codec.Timestamp = spec.Algorithm == RingAlgorithm
	res, err := amqp.Run(ctx, amqp.Config{
		URL: opts.URL, Names: names, Nodes: spec.Nodes, Factory: spec.Factory, Codec: codec,
		Script: script, React: spec.React, Tick: opts.Tick, Timeout: opts.Timeout,
		Run: id, Purge: true, Teardown: true, Lock: true,
		Sink: sink, Messages: messages, Skip: skip,
	})
	st := stats{terminated: res.Quiescent, now: res.Elapsed.Nanoseconds(), steps: res.Steps,
		messages: res.Messages, byType: res.ByType}
	if res.Exhausted {
		st.why = fmt.Sprintf("still running after --timeout %v", opts.Timeout)
	}
	if res.Duplicates+res.Foreign > 0 || res.Reconnects > 0 {
		fmt.Fprintf(stderr, "amqp: %d reconnect(s), %d duplicate deliveries dropped, %d of another run dropped\n",
			res.Reconnects, res.Duplicates, res.Foreign)
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
// carries out only its node's actions (without --initiator, not its start).
func ExecuteNode(ctx context.Context, spec Spec, no NodeOptions, stdout, stderr io.Writer) (Outcome, error) {
	var out Outcome
	codec, err := primedCodec(spec)
	if err != nil {
		return out, err
	}
	codec.Timestamp = spec.Algorithm == RingAlgorithm
	o, err := spec.openOutputs("text", no.Events, stdout, stderr)
	if err != nil {
		return out, err
	}
	defer o.close()
	if hr, ok := o.log.(trace.HeaderRenderer); ok { // the log names the nodes, as every run's does
		if err := hr.Header(spec.Header(Options{Runtime: "amqp"}, no.Replay)); err != nil {
			return out, fmt.Errorf("writing the log: %w", err)
		}
	}
	// fresh checkers, and fresh workload state for the specs that make it
	// there (the priming run used the first)
	var set *check.Set
	if cs := spec.checkers(); no.Watch {
		set = check.NewSet(cs...)
	}
	// The watcher judges the run once it is over, from every node's
	// events in Lamport-clock order: reports from different processes
	// arrive in no causal order (a node's exit from the critical section
	// may be reported after the next node's entry), and that order is
	// causal, as the lc travels in every message.
	var all []trace.Event
	sink := func(e *trace.Event) {
		if e.Node == no.Index {
			o.event(e)
			o.flush() // a person watches this terminal: each line as it happens
		} else {
			if e.Msg != nil && e.Msg.Value == nil { // reported: decode the message again
				if b, err := e.Msg.MarshalJSON(); err == nil {
					if m, err := codec.Decode(b); err == nil {
						e.Msg = trace.WrapMsg(m)
					}
				}
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
	res, err := amqp.Run(ctx, amqp.Config{
		URL: no.URL, Names: BrokerNames(spec.Algorithm, "nodes"), Nodes: spec.Nodes, Factory: spec.Factory,
		Codec: codec, Script: script, React: spec.React, Tick: no.Tick, Timeout: no.Timeout,
		Local: []int{no.Index}, Watch: no.Watch, Sink: sink, Messages: true,
		Lock: true, RunKey: no.RunKey,
	})
	if err != nil && ctx.Err() == nil {
		return out, amqpFailure(err)
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
		for k := range all {
			e := &all[k]
			vs := set.Observe(e)
			if spec.Observe != nil {
				spec.Observe(e)
			}
			for i := range vs {
				o.event(&vs[i])
			}
		}
		out.Summary.Verdicts = set.Finish(check.End{Terminated: res.Quiescent, Why: why, Messages: res.Messages})
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
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	for _, v := range out.Summary.Verdicts {
		if !v.OK && v.Property != "termination" {
			return out, cliutil.Violationf("%s violated: %s", v.Property, v.Detail)
		}
	}
	if !res.Quiescent {
		return out, cliutil.NoTerminationf("no termination: %s", why)
	}
	return out, nil
}

// primedCodec knows every message type the run sends: it runs the same
// spec on the simulator first (a node process may receive a type before it
// has sent one, and decoding needs a value of its Go type).
func primedCodec(spec Spec) (*amqp.Codec, error) {
	c := amqp.NewCodec()
	_, err := sim.Run(sim.Config{Nodes: spec.Nodes, Factory: spec.Factory, Seed: 1, Script: spec.Script,
		React: spec.React, MaxSteps: 10_000_000, Messages: true,
		Sink: func(e *trace.Event) {
			if e.Kind == trace.KindSend && e.Msg != nil && e.Msg.Value != nil {
				c.Learn(e.Msg.Value)
			}
		}})
	if err != nil {
		return nil, fmt.Errorf("learning the algorithm's messages: %w", err)
	}
	return c, nil
}
