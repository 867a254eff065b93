// Package live is ringlab's goroutine runtime: every node has an inbox and
// runs its steps on a goroutine of its own, in real time. It has two
// schedulers: the plain one (plain.go, Plain), one goroutine and one
// inbox channel per node, the code to read first; and the turn scheduler
// (Turns, the default), described below, which scales to a million nodes. Runtime runs an engine.System
// on either, as engine.Runtime. It runs the same
// node.Node state machines as engine/sim and reports the same events, so
// an algorithm that passes in the simulator can be watched on real
// goroutines, and the conformance suite (engine/internal/conformance) checks that
// both runtimes agree.
//
// # How a run works
//
// Everything a node handles arrives through its inbox (inbox.go): messages
// from other nodes, scripted and reactive actions, and the ticks of its
// timers. A send appends to the receiver's inbox and never blocks, so every
// link is FIFO per (sender, receiver) pair and a ring where every node sends
// at once cannot deadlock.
//
// A node has a goroutine while its inbox holds something, and only while
// it holds one of the run's few turns (turns.go): the put that makes an
// inbox non-empty asks a turn for the node, and its goroutine gives the
// turn back when the inbox is empty again, carrying on with the next node
// that waits for one. So a node's Step only ever runs on one goroutine at
// a time, no more goroutines are runnable than there are turns (which
// keeps Ctrl-C and the timeout prompt however busy the run), and a
// million-node election that has gone quiet holds no goroutines at all.
//
// Time is the wall clock (tests use testing/synctest's fake clock); one tick
// is Runtime.Tick. One goroutine of the run, the scheduler (schedule.go),
// delivers what is due later: scripted actions, delayed reactions and the
// nodes' timers.
//
// # When a run ends
//
// The runtime counts, under one mutex (runtime.mu): messages in flight,
// actions and ticks in inboxes, pending timers, and live nodes that have not
// said Done. The run is idle when no message is in flight, no action or tick
// waits in an inbox, and either every live node is done or no timer is
// pending: then nothing but the scheduled actions can still change anything.
// An idle run with no scheduled action left ends (engine.Quiescent). An idle
// run whose only work is scheduled actions does not wait for the clock: the
// scheduler skips time to the next one, as the simulator's virtual time
// would, and its event carries a note saying so. A run also ends when
// Runtime.Stop says so (engine.Stopped), when Runtime.Timeout passes
// (engine.TimedOut: "no termination"), or when the context is cancelled
// (engine.Interrupted, with the partial result). Run joins every goroutine
// it started before it returns, whatever the reason.
//
// Compared with sim, live has no seed and no replay (the schedule is the Go
// scheduler's), and of the faults only crash and restart, given as Script
// actions (node.CmdCrash, node.CmdRestart); drop, duplicate, partition and
// slow links are simulator-only.
package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// config describes one run: a Runtime and a System together.
type config struct {
	Nodes int // the number of nodes, indexed 1..Nodes
	// Factory is called for every node before any goroutine starts, and
	// again from a node's goroutine when it restarts; React is called from
	// the node's goroutine. Both must be safe for concurrent use.
	Factory node.Factory
	Script  []node.Action // commands, crashes and restarts at absolute times (ticks)
	// Workload answers node events with actions and hears of crashes and
	// restarts, from the node's goroutine; React is its plain-function form
	// (engine.ReactFunc). Set one of them, or neither.
	Workload engine.Workload
	React    node.React

	// Tick is the wall duration of one tick (timers, Script and React
	// times, Output.Now). Zero means DefaultTick.
	Tick time.Duration

	// Sink receives every event. Calls are serialized by the runtime, in
	// seq order; the *Event is reused: copy it to keep it (VC included).
	// Its t is nanoseconds since the start and lc the node's Lamport
	// clock. Messages adds send/recv/drop events. Sink runs on a goroutine
	// of the runtime's own, a little behind the steps (see sink.go); every
	// event has reached it when Run returns.
	// Skip lists kinds the Sink does not want: they are not built at all.
	Sink     func(*trace.Event)
	Messages bool
	Skip     trace.Kinds

	// VectorClocks gives every event the node's vector clock (Event.VC),
	// as the simulator's do: every event ticks the node's own
	// entry, a message carries a copy of its sender's clock, and a receive
	// merges it in before it ticks. It costs O(Nodes) per event.
	VectorClocks bool

	// Stop, if set, is asked after every step, and by the sink's goroutine
	// after every event; true ends the run. It is called from several
	// goroutines concurrently, so it must be safe for concurrent use. As
	// Sink runs behind the steps, a Stop that turns true on what Sink saw
	// (a checker's violation) ends the run a few steps after the event,
	// not at once; and if the run ends first, as Quiescent, it stays so.
	Stop func() bool

	// Timeout bounds the run's wall time; zero means no bound. A run that
	// has not ended by then ends with result.Exhausted.
	Timeout time.Duration

	// Progress, if set, is called about five times a second, from Run's
	// own goroutine, with how far the run has got (a progress line on a
	// terminal).
	Progress func(Progress)
}

// Progress is how far a run has got.
type Progress struct {
	Elapsed  time.Duration // wall time since the start
	InFlight int64         // messages sent and not yet handled
	NotDone  int64         // live nodes that have not said Done
}

// DefaultTick is the tick when Runtime.Tick is zero.
const DefaultTick = time.Millisecond

// result is what a run did; Runtime.Run reports it as an engine.Result.
type result struct {
	Steps     int64            // inputs handled by nodes
	Now       int64            // ticks at the end, time skipped included
	Elapsed   time.Duration    // wall time of the run
	Skipped   time.Duration    // time skipped because only scheduled actions were left
	Messages  int64            // messages sent
	ByType    map[string]int64 // messages sent, by message type
	Quiescent bool             // ended because nothing was left to do, or every live node was done
	Exhausted bool             // ended because config.Timeout passed
	Stopped   bool             // ended because config.Stop said so
}

// runTurns executes one live run on the turn scheduler (turns.go), the
// runtime for huge runs, and returns when it has ended and every
// goroutine it started has returned. If ctx is cancelled first, it returns
// ctx.Err() with the partial result.
func runTurns(ctx context.Context, cfg config) (result, error) {
	if err := cfg.validate(); err != nil {
		return result{}, err
	}
	rt, err := newRuntime(cfg)
	if err != nil {
		return result{}, err
	}
	return rt.run(ctx)
}

func (c *config) validate() error {
	switch {
	case c.Nodes < 1:
		return fmt.Errorf("live: need at least 1 node, got %d", c.Nodes)
	case c.Factory == nil:
		return errors.New("live: no node factory")
	case c.Tick < 0 || c.Timeout < 0:
		return fmt.Errorf("live: negative tick %v or timeout %v", c.Tick, c.Timeout)
	}
	if c.Tick == 0 {
		c.Tick = DefaultTick
	}
	c.Workload = engine.WorkloadOf(c.Workload, c.React)
	for _, a := range c.Script {
		if a.Node < 1 || a.Node > c.Nodes || a.At < 0 {
			return fmt.Errorf("live: scripted %s for node %d at t=%d is out of range", a.Cmd, a.Node, a.At)
		}
	}
	return nil
}
