package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ringlab/engine"
	"ringlab/engine/trace"
)

// Scheduler chooses how the live runtime runs its nodes.
type Scheduler uint8

const (
	// Turns runs a node on a goroutine only while its inbox holds
	// something and it holds one of a few turns (turns.go): the default,
	// which scales to a million-node election.
	Turns Scheduler = iota
	// Plain runs one goroutine and one inbox channel per node (plain.go):
	// the runtime to read first. Each node's channel buffers 64 letters,
	// so beyond some 100,000 nodes it is slow and needs gigabytes.
	Plain
)

var schedulerNames = [...]string{Plain: "plain", Turns: "turns"}

// String returns the scheduler's name: "plain" or "turns".
func (s Scheduler) String() string {
	if int(s) < len(schedulerNames) {
		return schedulerNames[s]
	}
	return fmt.Sprintf("Scheduler(%d)", s)
}

// ParseScheduler reads a scheduler's name: "plain" or "turns".
func ParseScheduler(s string) (Scheduler, error) {
	for k, name := range schedulerNames {
		if s == name {
			return Scheduler(k), nil
		}
	}
	return 0, fmt.Errorf("unknown scheduler %q (want plain or turns)", s)
}

// Runtime is the live runtime as an engine.Runtime: the knobs of a live
// run; the nodes, script and workload come from the System.
type Runtime struct {
	Scheduler Scheduler     // Turns (the zero value) or Plain
	Tick      time.Duration // zero means DefaultTick
	Timeout   time.Duration // zero: no bound (End TimedOut)
	// Messages adds send/recv/drop events; Skip lists kinds the observer
	// does not want (they are not built at all). The observer's calls are
	// serialized, in seq order, on a goroutine of the runtime's own a
	// little behind the steps; every event has reached it when Run
	// returns.
	Messages bool
	Skip     trace.Kinds
	// VectorClocks gives every event the node's vector clock, as the
	// simulator's do, at O(Nodes) per event.
	VectorClocks bool
	// Stop, if set, is asked after every step and after every event the
	// observer saw; true ends the run (End Stopped), a few steps after
	// the event that made it true. It is called from several goroutines
	// at once.
	Stop func() bool
	// Progress, if set, is called about five times a second, from Run's
	// own goroutine.
	Progress func(Progress)
}

// Name is "live".
func (Runtime) Name() string { return "live" }

// Run runs sys on goroutines; see engine.Runtime. The observer's calls
// are serialized.
func (r Runtime) Run(ctx context.Context, sys engine.System, obs engine.Observer) (engine.Result, error) {
	cfg := config{
		Nodes: sys.Nodes, Factory: sys.Factory, Script: sys.Script, Workload: sys.Workload,
		Tick: r.Tick, Sink: obs, Messages: r.Messages, Skip: r.Skip, VectorClocks: r.VectorClocks,
		Stop: r.Stop, Timeout: r.Timeout, Progress: r.Progress,
	}
	run := runPlain
	if r.Scheduler == Turns {
		run = runTurns
	}
	res, err := run(ctx, cfg)
	out := engine.Result{Now: res.Now, T: (res.Elapsed + res.Skipped).Nanoseconds(), Steps: res.Steps, Messages: res.Messages, ByType: res.ByType, Elapsed: res.Elapsed}
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		out.End, out.Why, err = engine.Interrupted, "interrupted", nil
	case res.Quiescent:
		out.End = engine.Quiescent
	case res.Stopped:
		out.End, out.Why = engine.Stopped, "stopped"
	case res.Exhausted:
		out.End, out.Why = engine.TimedOut, fmt.Sprintf("still running after %v of wall time", r.Timeout)
	}
	return out, err
}
