// Package engine holds the few values every ringlab tool shares. An
// Algorithm describes one algorithm once: its name, its typed parameters
// and a Build that makes a fresh System for every run, every explored seed
// and every checked path. A System is everything the tools need to run the
// algorithm and judge it: its nodes, the message types they exchange, the
// workload that drives them, and its properties. A Runtime runs a System
// (the simulator, goroutines, RabbitMQ) and says in one Result how the run
// ended.
//
// The runtimes see events through an Observer; properties, renderers and
// logs are all observers, so a property written once is judged alike by a
// run on any runtime, a saved log, the random explorer and the exhaustive
// checker.
package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Observer sees every event of a run, one call at a time, in the order the
// runtime reports them. The *trace.Event may be reused after the call
// returns: copy what you keep.
type Observer func(*trace.Event)

// Workload is the environment of a run: the users who ask for the critical
// section and leave it, the operator who starts an election. A runtime
// calls React for every event node i emits, from node i's step, and carries
// out the actions it returns (their At is relative to now); Crash and
// Restart tell it that node i crashed or came back with amnesia.
//
// A Workload is deterministic and its state is keyed, so that the
// exhaustive checker can carry it in each state: Clone returns an
// independent copy and AppendKey a canonical encoding of what React
// depends on. React for node i may touch only node i's part of the state
// (the live runtime calls it from several goroutines at once, one per
// node), which is also what lets steps at two nodes commute.
type Workload interface {
	// React returns the actions that answer event ev of node i at time
	// now; an action's At is relative to now.
	React(i int, ev node.Event, now int64) []node.Action
	// Crash tells the workload that node i crashed.
	Crash(i int)
	// Restart tells the workload that node i came back, with no memory.
	Restart(i int)
	// Clone returns an independent copy of the workload's state.
	Clone() Workload
	// AppendKey appends a canonical encoding of the state React depends
	// on: two workloads with equal keys answer alike.
	AppendKey(b []byte) []byte
}

// System is one run's description, built fresh by Algorithm.Build for
// every run: nothing in it is shared with another run.
type System struct {
	// Name is how summaries and logs name the algorithm
	// ("mutex ricart-agrawala").
	Name string
	// Nodes is the number of nodes, indexed 1..Nodes; Factory makes
	// node i, at the start and again when it restarts after a crash.
	Nodes   int
	Factory node.Factory
	// Messages lists one value of every message type the nodes may send,
	// under every schedule and fault: the registry by which a RabbitMQ
	// codec and a log reader turn a type name back into a typed message.
	Messages []node.Msg
	// Script is the environment's first actions at absolute times.
	Script []node.Action
	// Workload answers node events with actions; nil: none.
	Workload Workload
	// Properties are judged at every event and at the end of the run.
	Properties []check.Property
	// Goals are the states an exhaustive check may be asked to reach
	// (--goal NAME), by name.
	Goals []Goal
	// Theory, if set, is the messages per entry (or per run) the
	// algorithm's theory states, in words ("2(N-1) = 4"): `check
	// --extremes` prints it next to the exact figures over every schedule.
	Theory string
	// Names gives node i's display name ("coordinator", "N32", "P2");
	// nil: "node i".
	Names func(i int) string
	// Topology is trace.TopoRing, TopoComplete (the default), TopoStar or
	// TopoGraph; Edges lists a graph's undirected edges by node index.
	Topology string
	Edges    [][2]int
	// Observe, if set, sees every event after the properties, for the
	// figures Figures reports; ObserveKinds are the kinds it needs (zero:
	// every kind).
	Observe      Observer
	ObserveKinds trace.Kinds
	// Figures are the algorithm's own results of a finished run (rounds,
	// messages next to the theory), for the summary; they read the run's
	// summary (its runtime, its message counts) and what Observe counted.
	Figures func(s *trace.Summary) map[string]any
	// Text, if set, replaces the engine's text renderer for --format text
	// (ringlab's ring election uses it for its specification's own
	// wording); stderr is for figures that must not disturb stdout. Most
	// Systems leave it nil.
	Text func(stdout, stderr io.Writer) trace.Renderer
	// RingNames makes a run over RabbitMQ use the ring election's own
	// broker names (exchange leader.election.ring, queues node.1..node.N)
	// in place of names prefixed by the algorithm and run id, so that
	// processes written to that specification can join it. Most Systems
	// leave it false.
	RingNames bool
	// Within, if set, is a state constraint for the exhaustive checker
	// (as TLC's): a state where some node i is not Within is counted but
	// not expanded. Bound names it in the report ("--max-clock 6").
	Within func(i int, nd node.Node) bool
	Bound  string
	// WireTimestamp puts a timestamp in every message sent over
	// RabbitMQ, as the ring election's specification asks (trace.Codec's
	// Timestamp).
	WireTimestamp bool
	// Slow are links the run needs slowed on the simulator (a scenario
	// whose point is a message slower than a timeout); the runner adds
	// them to the simulator's faults. A System with slow links runs on
	// the simulator only: the exhaustive checker, which has no time,
	// refuses it.
	Slow []Slow
	// Symmetry, if set, declares the renamings of the nodes under which
	// the System behaves alike (see Symmetry for what makes one valid):
	// `check --symmetry` keeps one state of every orbit. Nil: none.
	Symmetry *Symmetry
	// Endless, if set, says that the System's workload never ends, in
	// words that name the parameter which makes it so and the one that
	// would end it ("with --requests 0 no run ends; --requests N ends
	// them"). An exhaustive check then judges a property that is judged
	// where a run ends only over cycles (--liveness), and refuses one it
	// cannot judge at all; a System without it whose runs cannot end fails
	// the check's termination.
	Endless string
}

// Slow delays every message delivered to Node by Extra ticks during
// [From, Until), in simulator ticks: a node that is only slow, which its
// peers may take for dead.
type Slow struct {
	Node        int   // the receiving node's index
	Extra       int64 // ticks added to each delivery
	From, Until int64 // the half-open window of send times it applies to
}

// Wants is the kinds of events the System itself needs: its properties'
// (and their promises') and its observer's. A runtime need not build the
// others unless a renderer or a log wants them.
func (s *System) Wants() trace.Kinds {
	k := trace.Kinds(0)
	for _, p := range s.Properties {
		w, ok := p.(check.Wanter)
		if !ok {
			return trace.AllKinds
		}
		k |= w.Wants()
		if e, ok := p.(check.Eventually); ok { // a run follows its promise too
			k |= e.Promise().Wants()
		}
	}
	if s.Observe != nil {
		if s.ObserveKinds == 0 {
			return trace.AllKinds
		}
		k |= s.ObserveKinds
	}
	return k
}

// NodeName returns node i's display name.
func (s *System) NodeName(i int) string {
	if s.Names != nil {
		return s.Names(i)
	}
	return fmt.Sprintf("node %d", i)
}

// End says how a run ended.
type End uint8

const (
	Quiescent   End = iota + 1 // nothing was left to do: every live node done, no message in flight
	Stopped                    // an observer asked the run to stop (a violation found)
	Exhausted                  // the step budget ran out
	TimedOut                   // the wall-clock budget ran out
	Interrupted                // the context was cancelled (Ctrl-C)
)

var endNames = [...]string{Quiescent: "quiescent", Stopped: "stopped", Exhausted: "exhausted", TimedOut: "timed out", Interrupted: "interrupted"}

// String returns the end's name as summaries print it ("quiescent",
// "timed out").
func (e End) String() string {
	if int(e) < len(endNames) && endNames[e] != "" {
		return endNames[e]
	}
	return fmt.Sprintf("End(%d)", e)
}

// Result is what a run did, on any runtime.
type Result struct {
	End End // how the run ended
	// Why says in words why a run that is not Quiescent ended
	// ("still running after the step budget of 1000 steps").
	Why string
	Now int64 // the runtime's clock at the end, in ticks
	// T is the end's time in the unit of the events' T: ticks on the
	// simulator, nanoseconds since the start on goroutines and RabbitMQ.
	T          int64
	Steps      int64            // inputs handled by nodes
	Messages   int64            // messages sent (drops and duplicates not included)
	ByType     map[string]int64 // messages sent, by message type
	Dropped    int64            // messages lost to faults
	Duplicated int64            // messages delivered twice by faults
	Elapsed    time.Duration    // wall time
	// Unapplied lists scripted faults that never happened because the run
	// ended before they were due.
	Unapplied []string
}

// Runtime runs a System. Run returns when the run has ended and every
// goroutine it started has returned; if ctx is cancelled first it returns
// the partial Result with End Interrupted and a nil error. An error means
// the run could not be carried out (a bad configuration, a broker that
// cannot be reached).
type Runtime interface {
	// Name is the runtime's name in summaries and logs: "sim", "live",
	// "amqp".
	Name() string
	// Run runs sys to its end, reporting every event to obs.
	Run(ctx context.Context, sys System, obs Observer) (Result, error)
}
