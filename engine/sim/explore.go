package sim

import (
	"context"

	"ringlab/engine"
	"ringlab/engine/trace"
)

// Judge watches one run: Observe sees every event, Violated says whether a
// safety property has been broken so far (the run stops there), and Final
// judges the finished run (liveness: termination, agreement, starvation).
type Judge interface {
	// Observe sees the next event of the run.
	Observe(e *trace.Event)
	// Violated reports whether a safety property is broken so far.
	Violated() bool
	// Final reports whether the finished run res passes.
	Final(res engine.Result) bool
}

// Explore runs a System on the simulator under many seeds looking for a
// run that a judge condemns, then shrinks the violating schedule.
type Explore struct {
	// Runtime is what every schedule shares (policy, delay, faults, step
	// budget); its Seed, Choices and Stop are set per run, and every run
	// reports messages, which judges follow.
	Runtime Runtime
	// System is what every schedule runs; its workload starts afresh (a
	// Clone) for each.
	System    engine.System
	Schedules int          // how many seeds to try
	FirstSeed uint64       // the first seed tried; the others follow it
	NewJudge  func() Judge // makes a fresh judge for every run
	// MaxShrinkRuns bounds the shrinking (0 means 2000 runs).
	MaxShrinkRuns int
	// Progress, if set, is told how many schedules have been tried, after
	// each one.
	Progress func(runs int)
}

// Found is the result of an exploration.
type Found struct {
	Runs        int     // schedules tried (not counting shrinking)
	Interrupted bool    // the context was cancelled: Runs schedules were tried in full
	Violating   bool    // a violating schedule was found
	Seed        uint64  // its seed
	Choices     []int64 // the shrunk schedule: replay it with Runtime.Choices
	Original    int     // decisions in the schedule before shrinking that were not benign
	Steps       int64   // steps of the shrunk run, up to the violation
}

// Run explores. Each run stops at its first violation, so the schedules it
// keeps are short; shrinking then sets decisions back to their benign value
// (minimum latency, no drop, no duplicate) one at a time, keeping every
// change after which the run still violates — a greedy delta-debugging pass.
// A cancelled ctx stops it between runs and within one, with what was
// found so far.
func (x Explore) Run(ctx context.Context) (Found, error) {
	var f Found
	for k := 0; k < x.Schedules; k++ {
		if ctx.Err() != nil { // a schedule is often shorter than the run's own poll interval
			f.Interrupted = true
			return f, nil
		}
		seed := x.FirstSeed + uint64(k)
		bad, res, err := x.try(ctx, seed, nil)
		if err != nil {
			return f, err
		}
		if res.Interrupted {
			f.Interrupted = true
			return f, nil
		}
		f.Runs = k + 1
		if x.Progress != nil {
			x.Progress(f.Runs)
		}
		if bad {
			f.Violating, f.Seed = true, seed
			f.Choices, f.Steps, f.Original = res.Choices, res.Steps, Decisions(res.Choices)
			return x.shrink(ctx, f)
		}
	}
	return f, nil
}

// try runs the schedule of seed (replaying choices, if not nil) with a
// fresh judge, and says whether the judge condemns it. Explore's Run and
// shrink look at ctx before every schedule: a run polls it only every few
// thousand steps, and an explored schedule may end well before its first
// poll.
func (x Explore) try(ctx context.Context, seed uint64, choices []int64) (bool, result, error) {
	j := x.NewJudge()
	cfg := x.Runtime.config(x.System, j.Observe)
	if cfg.Workload != nil { // every run starts from the workload as given
		cfg.Workload = cfg.Workload.Clone()
	}
	cfg.Seed, cfg.Choices, cfg.RecordChoices = seed, choices, true
	cfg.Messages = true // judges follow messages
	cfg.Stop = j.Violated
	cfg.Cancel = ctx.Done()
	res, err := run(cfg)
	if err != nil || res.Interrupted {
		return false, res, err
	}
	return j.Violated() || j.Final(res.engine()), res, nil
}

func (x Explore) shrink(ctx context.Context, f Found) (Found, error) {
	budget := x.MaxShrinkRuns
	if budget == 0 {
		budget = 2000
	}
	best := append([]int64(nil), f.Choices...)
	for i := 0; i < len(best); i++ { // best may shrink as runs stop earlier
		if budget == 0 || ctx.Err() != nil {
			break
		}
		if best[i] == 0 {
			continue
		}
		cand := append([]int64(nil), best...)
		cand[i] = 0
		bad, res, err := x.try(ctx, f.Seed, cand)
		budget--
		if err != nil {
			return f, err
		}
		if res.Interrupted { // keep what is shrunk so far
			break
		}
		if bad {
			best, f.Steps = res.Choices, res.Steps
		}
	}
	// Drop the benign tail: a replay takes 0 past the end anyway.
	for len(best) > 0 && best[len(best)-1] == 0 {
		best = best[:len(best)-1]
	}
	f.Choices = best
	return f, nil
}

// Decisions counts the decisions of a schedule that are not benign (not
// zero: a longer latency, a drop, a duplicate).
func Decisions(cs []int64) int {
	n := 0
	for _, c := range cs {
		if c != 0 {
			n++
		}
	}
	return n
}
