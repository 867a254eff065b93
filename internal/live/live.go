// Package live is ringlab's goroutine runtime: one goroutine per node, each
// with an inbox, real time. It runs the same node.Node state machines as
// internal/sim and reports the same events, so an algorithm that passes in
// the simulator can be watched on real goroutines, and the conformance suite
// (internal/conformance) checks that both runtimes agree.
//
// A send goes straight into the receiver's inbox and never blocks the
// sender, so every link is FIFO per (sender, receiver) pair and a ring where
// every node sends at once cannot deadlock. Timers run on the real clock
// (tests use testing/synctest's fake clock); one tick is Config.Tick of wall
// time. A node's Step runs only on its own goroutine.
//
// A node that is done (Output.Done), with no timer pending and nothing in
// its inbox, lets its goroutine end; the next message or action put in its
// inbox starts a new one, which carries on with the same node. So the
// goroutines of a finished election are gone before the run ends, and a
// million of them need no stop.
//
// A run ends when no work is pending anywhere — no message in flight or
// queued, no pending timer, no pending scripted or reactive action
// (Result.Quiescent) — or when every live node has reported Done and no
// message is in flight (also Quiescent), when Config.Stop says so
// (Stopped), when Config.Timeout passes (Exhausted: "no termination"), or
// when the context is cancelled (Run returns ctx.Err() with the partial
// Result). Run starts every goroutine it uses and joins them all before it
// returns, whatever the reason.
//
// Compared with sim, live has no seed and no replay (the schedule is the Go
// scheduler's), no vector clocks, and of the faults only crash and restart,
// given as Script actions (node.CmdCrash, node.CmdRestart); drop, duplicate,
// partition and slow links are simulator-only.
package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ringlab/internal/node"
	"ringlab/internal/trace"
)

// Config describes one run. It mirrors sim.Config where that makes sense.
type Config struct {
	Nodes int
	// Factory is called for every node before any goroutine starts, and
	// again from a node's goroutine when it restarts; React is called from
	// the node's goroutine. Both must be safe for concurrent use.
	Factory node.Factory
	Script  []node.Action // commands, crashes and restarts at absolute times (ticks)
	React   node.React

	// Tick is the wall duration of one tick (timers, Script and React
	// times, Input.Now). Zero means DefaultTick.
	Tick time.Duration

	// Sink receives every event. Calls are serialized by the runtime, in
	// seq order; the *Event is reused: copy it to keep it. Its t is
	// nanoseconds since the start and lc the node's Lamport clock.
	// Messages adds send/recv/drop events. Sink runs on a goroutine of the
	// runtime's own, a little behind the steps (see sink.go); every event
	// has reached it when Run returns.
	// Skip lists kinds the Sink does not want: they are not built at all.
	Sink     func(*trace.Event)
	Messages bool
	Skip     trace.Kinds
	// Batch lets the Sink run behind by up to half a queue of events (a
	// few thousand) or 10 ms, whichever comes first, and see them in
	// bursts, which saves a goroutine switch per event: for a sink that only
	// checks. A sink that shows the run as it goes wants it off.
	Batch bool
	// Untimed says the Sink does not read Event.T, so a clockless node
	// (node.Clockless) need not read the clock at all: its events carry
	// the time the sink's goroutine took them instead, up to a batch
	// late. Only with Batch.
	Untimed bool

	// Stop, if set, is asked after every step, and by the sink's goroutine
	// whenever it has caught up with the events; true ends the run. It is
	// called from several goroutines concurrently, so it must be safe for
	// concurrent use. As Sink runs behind the steps, a Stop that turns true
	// on what Sink saw (a checker's violation) ends the run a few steps
	// after the event, not at once; and if the run ends first, as
	// Quiescent, it stays so.
	Stop func() bool

	// Timeout bounds the run's wall time; zero means no bound. A run that
	// has not ended by then ends with Result.Exhausted.
	Timeout time.Duration
}

// DefaultTick is the tick when Config.Tick is zero.
const DefaultTick = time.Millisecond

// Result is what a run did. The fields mean what they mean in sim.Result.
type Result struct {
	Steps     int64         // inputs handled by nodes
	Now       int64         // ticks elapsed at the end
	Elapsed   time.Duration // wall time of the run
	Messages  int64         // messages sent
	ByType    map[string]int64
	Quiescent bool // ended because nothing was left to do, or every live node was done
	Exhausted bool // ended because Config.Timeout passed
	Stopped   bool // ended because Config.Stop said so
}

// Why a run ended; the first reason wins.
const (
	endNone int32 = iota
	endQuiescent
	endStopped
)

// Run executes one live run and returns when it has ended and every
// goroutine it started has returned. If ctx is cancelled first, Run returns
// ctx.Err() with the partial Result.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	rt, err := newRuntime(cfg)
	if err != nil {
		return Result{}, err
	}
	return rt.run(ctx)
}

func (c *Config) validate() error {
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
	for _, a := range c.Script {
		if a.Node < 1 || a.Node > c.Nodes || a.At < 0 {
			return fmt.Errorf("live: scripted %s for node %d at t=%d is out of range", a.Cmd, a.Node, a.At)
		}
	}
	return nil
}
