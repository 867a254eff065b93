// Package sim is ringlab's deterministic runtime: one goroutine, virtual
// time, and a seeded random source, so one seed gives one run, bit for bit,
// on any machine. It delivers messages to node.Node state machines under a
// delivery policy and a fault model, and reports every event to an
// observer. Runtime runs an engine.System on it, as engine.Runtime; Explore
// tries many seeds and shrinks the schedule of a run that breaks a
// property.
//
// Time is an integer count of ticks. Each message gets a latency drawn from
// Runtime.Delay; under PolicyFIFO a message never overtakes an earlier one on
// the same link (the later one waits), under PolicyRandom it may. Pending
// items live in a timing wheel (O(1) per message) with a heap for items
// further in the future than the wheel spans.
//
// A run ends when nothing is pending, or when every live node reports Done,
// no message is in flight and no scripted action is still due (a crash
// scripted for later still happens: virtual time jumps to it); when
// Runtime.Stop says so; when the step budget runs out or the wall-clock
// Timeout passes (engine.Exhausted, engine.TimedOut: the caller reports "no
// termination"); or when the context is cancelled (engine.Interrupted:
// Ctrl-C).
package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Policy chooses how message latencies are drawn and ordered.
type Policy int

const (
	PolicyFIFO   Policy = iota // per-link FIFO: no message overtakes an earlier one on its link
	PolicyRandom               // non-FIFO: each message's latency is independent, reordering allowed
)

// String returns the policy's name: "fifo" or "random".
func (p Policy) String() string {
	if p == PolicyRandom {
		return "random"
	}
	return "fifo"
}

// Delay is the latency distribution of a message, uniform in [Min, Max] ticks.
type Delay struct {
	Min, Max int64 // the bounds in ticks, both included; Min >= 1
}

// Partition cuts the nodes in Group off from the rest during [From, Until):
// messages crossing the cut are dropped.
type Partition struct {
	Group       []int // the indices of the nodes cut off
	From, Until int64 // the half-open window, in ticks
}

// Slow delays every message delivered to Node by Extra ticks during
// [From, Until): a node only slow, which its peers may take for dead. It
// is the engine's
// type, so that a System can ask for slow links.
type Slow = engine.Slow

// Faults is the fault model of a run; all of it is seeded and replayable.
type Faults struct {
	Drop       float64     // probability that a message is lost
	Dup        float64     // probability that a message is delivered twice
	Partitions []Partition // network partitions, each for a window of time
	Slow       []Slow      // slowed links into a node, each for a window of time
}

// config describes one run: a Runtime and a System together (see
// Runtime.config), and what Explore sets per schedule.
type config struct {
	Nodes    int           // the number of nodes, indexed 1..Nodes
	Factory  node.Factory  // makes node i, at the start and at a restart
	Seed     uint64        // the seed of every random choice: one seed, one run
	Policy   Policy        // the delivery order: PolicyFIFO or PolicyRandom
	Delay    Delay         // zero means {1, 1}
	Faults   Faults        // drops, duplicates, partitions and slow links
	Script   []node.Action // commands, crashes and restarts at absolute times
	React    node.React    // see Workload
	MaxSteps int64         // step budget; zero means DefaultMaxSteps

	// Workload answers node events with actions and hears of crashes and
	// restarts; React is its plain-function form (engine.ReactFunc). Set
	// one of them, or neither.
	Workload engine.Workload

	// Sink receives every event. The *Event is reused: copy it to keep it.
	// Messages adds send/recv/drop/dup events (off for huge silent runs).
	// VectorClocks adds vc to every event, at O(n) per event.
	// Skip lists kinds the Sink does not want: they are not built at all.
	Sink         func(*trace.Event)
	Messages     bool
	Skip         trace.Kinds
	VectorClocks bool
	// Stop, if set, is asked after every step; true ends the run early.
	Stop func() bool
	// Cancel, when closed, ends the run within a few thousand steps
	// (result.Interrupted). Deadline, if not zero, ends it once the wall
	// clock passes it (result.TimedOut). Both are polled, not waited on:
	// the simulator stays one goroutine.
	Cancel   <-chan struct{}
	Deadline time.Time
	// Progress, if set, is called every few thousand steps with the
	// figures so far (for a progress line on a terminal).
	Progress func(result)

	// Unoptimized turns the simulator's speed-ups off (prefetch.go,
	// fastpath.go), for the benchmark that measures what they pay: the
	// run is the same, only slower.
	Unoptimized bool

	// Choices, when not nil, replaces the random source: every random
	// decision (a latency, a drop, a duplicate) takes the next value, and 0
	// once they run out (0 is always the benign choice: minimum latency, no
	// drop, no duplicate). That is how a shrunk schedule replays.
	// RecordChoices makes result.Choices list every decision taken.
	Choices       []int64
	RecordChoices bool
}

// DefaultMaxSteps bounds a run when Runtime.MaxSteps is zero.
const DefaultMaxSteps = 200_000_000

// result is what a run did; engine is it as every runtime reports it.
type result struct {
	Steps      int64            // inputs handled by nodes
	Now        int64            // virtual time at the end
	Messages   int64            // messages sent (duplicates and drops not included)
	ByType     map[string]int64 // messages sent, by message type
	Dropped    int64            // messages lost to Faults.Drop or a partition
	Duplicated int64            // messages delivered twice by Faults.Dup
	Quiescent  bool             // ended because nothing was left to do
	Exhausted  bool             // ended because the step budget ran out
	Stopped    bool             // ended because config.Stop said so
	// Interrupted: ended because Cancel was closed; TimedOut: because the
	// Deadline passed.
	Interrupted bool
	TimedOut    bool
	// Unapplied lists the fault windows (partitions, slow links) that
	// never opened because the run ended before they were due.
	Unapplied []string
	Choices   []int64
}

// run executes one simulation.
func run(cfg config) (result, error) {
	s, err := newSim(cfg)
	if err != nil {
		return result{}, err
	}
	return s.run()
}

func (c *config) validate() error {
	switch {
	case c.Nodes < 1:
		return fmt.Errorf("sim: need at least 1 node, got %d", c.Nodes)
	case c.Factory == nil:
		return errors.New("sim: no node factory")
	case c.Faults.Drop < 0 || c.Faults.Drop > 1 || c.Faults.Dup < 0 || c.Faults.Dup > 1:
		return fmt.Errorf("sim: drop and duplicate probabilities must be in [0,1]")
	}
	if c.Delay == (Delay{}) {
		c.Delay = Delay{1, 1}
	}
	if c.Delay.Min < 1 || c.Delay.Max < c.Delay.Min {
		return fmt.Errorf("sim: delay range [%d,%d] must satisfy 1 <= min <= max", c.Delay.Min, c.Delay.Max)
	}
	c.Workload = engine.WorkloadOf(c.Workload, c.React)
	if c.MaxSteps <= 0 {
		c.MaxSteps = DefaultMaxSteps
	}
	for _, a := range c.Script {
		if a.Node < 1 || a.Node > c.Nodes || a.At < 0 {
			return fmt.Errorf("sim: scripted %s for node %d at t=%d is out of range", a.Cmd, a.Node, a.At)
		}
	}
	return nil
}

// ParsePolicy reads a policy name.
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "fifo", "":
		return PolicyFIFO, nil
	case "random":
		return PolicyRandom, nil
	}
	return 0, fmt.Errorf("unknown delivery policy %q (want fifo or random)", s)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x73696d)) }
