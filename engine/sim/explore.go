package sim

import (
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
	Final(res Result) bool
}

// Explore runs Config under many seeds looking for a run that a judge
// condemns, then shrinks the violating schedule.
type Explore struct {
	Config    Config       // Seed, Sink, Stop, Choices are set per run
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
	Interrupted bool    // Config.Cancel was closed: Runs schedules were tried in full
	Violating   bool    // a violating schedule was found
	Seed        uint64  // its seed
	Choices     []int64 // the shrunk schedule: replay it with Config.Choices
	Original    int     // decisions in the schedule before shrinking that were not benign
	Steps       int64   // steps of the shrunk run, up to the violation
}

// Run explores. Each run stops at its first violation, so the schedules it
// keeps are short; shrinking then sets decisions back to their benign value
// (minimum latency, no drop, no duplicate) one at a time, keeping every
// change after which the run still violates — a greedy delta-debugging pass.
func (x Explore) Run() (Found, error) {
	var f Found
	for k := 0; k < x.Schedules; k++ {
		if x.cancelled() { // a schedule is often shorter than the run's own poll interval
			f.Interrupted = true
			return f, nil
		}
		seed := x.FirstSeed + uint64(k)
		cfg := x.Config
		cfg.Seed, cfg.Choices, cfg.RecordChoices = seed, nil, true
		bad, res, err := x.try(cfg)
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
			return x.shrink(f)
		}
	}
	return f, nil
}

// cancelled reports whether Config.Cancel is closed. Run and shrink look
// before every schedule: a run polls Cancel only every few thousand steps,
// and an explored schedule may end well before its first poll.
func (x Explore) cancelled() bool {
	select {
	case <-x.Config.Cancel:
		return true
	default:
		return false
	}
}

func (x Explore) try(cfg Config) (bool, Result, error) {
	j := x.NewJudge()
	if cfg.Workload != nil { // every run starts from the workload as given
		cfg.Workload = cfg.Workload.Clone()
	}
	cfg.Messages = true // judges follow messages
	user := cfg.Sink
	cfg.Sink = func(e *trace.Event) {
		j.Observe(e)
		if user != nil {
			user(e)
		}
	}
	cfg.Stop = j.Violated
	res, err := Run(cfg)
	if err != nil || res.Interrupted {
		return false, res, err
	}
	return j.Violated() || j.Final(res), res, nil
}

func (x Explore) shrink(f Found) (Found, error) {
	budget := x.MaxShrinkRuns
	if budget == 0 {
		budget = 2000
	}
	best := append([]int64(nil), f.Choices...)
	for i := 0; i < len(best); i++ { // best may shrink as runs stop earlier
		if budget == 0 || x.cancelled() {
			break
		}
		if best[i] == 0 {
			continue
		}
		cand := append([]int64(nil), best...)
		cand[i] = 0
		cfg := x.Config
		cfg.Seed, cfg.Choices, cfg.RecordChoices = f.Seed, cand, true
		bad, res, err := x.try(cfg)
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
