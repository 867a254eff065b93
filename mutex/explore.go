package mutex

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/node"
	"ringlab/internal/runner"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// explore is runner.Explore with a shrinking pass that survives a shorter
// candidate schedule: sim.Explore's shrink indexes its schedule by the
// length it had before a candidate run that stopped earlier replaced it
// (index out of range). Output and flags are runner.Explore's. Once
// internal/sim is fixed, this is a call to runner.Explore.
func explore(ctx context.Context, c *cli.Context, spec runner.Spec, opts runner.Options, stdout, stderr io.Writer) error {
	only := strings.ReplaceAll(c.String("property"), "-", " ")
	if only != "" && !slices.Contains(propertyNames(spec), only) {
		return cliutil.Usagef("--property: %q is not checked here (want one of: %s)", c.String("property"),
			strings.ReplaceAll(strings.Join(propertyNames(spec), ","), " ", "-"))
	}
	schedules, first, err := runner.ExploreStart(c, opts, stderr)
	if err != nil {
		return err
	}
	cfg := sim.Config{
		Nodes: spec.Nodes, Factory: spec.Factory, Policy: opts.Policy, Delay: opts.Latency,
		Faults: opts.Faults, Script: append(append([]node.Action(nil), spec.Script...), opts.Script...),
		React: spec.React, MaxSteps: opts.MaxSteps, Messages: true, RecordChoices: true,
	}
	for k := range schedules {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		cfg.Seed = first + uint64(k)
		bad, res, err := try(cfg, spec, only)
		if err != nil {
			return err
		}
		if !bad {
			continue
		}
		found, err := shrink(cfg, spec, only, res.Choices)
		if err != nil {
			return err
		}
		sched := runner.FormatSchedule(found)
		fmt.Fprintf(runner.ExploreNotes(opts, stdout, stderr), "violation found by schedule %d of %d (seed %d); shrunk from %d to %d non-default decisions: %s\n\n",
			k+1, schedules, cfg.Seed, nonzero(res.Choices), nonzero(found), sched)
		opts.Seed, opts.SeedDrawn, opts.Schedule = cfg.Seed, false, found
		if len(opts.Schedule) == 0 {
			opts.Schedule = []int64{0}
		}
		replay := runner.ExploreReplay(c, cfg.Seed, sched)
		_, err = runner.Execute(ctx, spec, opts, replay, stdout, stderr)
		return err
	}
	fmt.Fprintf(runner.ExploreNotes(opts, stdout, stderr), "no violation in %d schedules (seeds %d..%d, policy %s, latency %d-%d)\n",
		schedules, first, first+uint64(schedules)-1, opts.Policy, opts.Latency.Min, opts.Latency.Max)
	return nil
}

// propertyNames lists the properties the spec checks.
func propertyNames(spec runner.Spec) []string {
	var names []string
	for _, ch := range spec.Checks() {
		names = append(names, ch.Property())
	}
	return names
}

// try runs one schedule, stopping at the first safety violation, and
// judges it with the spec's checkers (liveness at the end); with only set,
// with that property's checker alone.
func try(cfg sim.Config, spec runner.Spec, only string) (bool, sim.Result, error) {
	cs := spec.Checks()
	if only != "" {
		cs = slices.DeleteFunc(cs, func(ch check.Checker) bool { return ch.Property() != only })
	}
	set := check.NewSet(cs...)
	cfg.Sink = func(e *trace.Event) { set.Observe(e) }
	cfg.Stop = set.Violated
	res, err := sim.Run(cfg)
	if err != nil || set.Violated() {
		return set.Violated(), res, err
	}
	end := check.End{Terminated: res.Quiescent, Why: "step budget exhausted", Messages: res.Messages}
	for _, v := range set.Finish(end) {
		if !v.OK {
			return true, res, nil
		}
	}
	return false, res, nil
}

// shrink sets decisions back to their benign value (0) one at a time,
// keeping every change after which the run still violates.
func shrink(cfg sim.Config, spec runner.Spec, only string, choices []int64) ([]int64, error) {
	best := append([]int64(nil), choices...)
	for i, budget := 0, 2000; i < len(best) && budget > 0; i++ {
		if best[i] == 0 {
			continue
		}
		cand := append([]int64(nil), best...)
		cand[i] = 0
		cfg.Choices = cand
		budget--
		bad, res, err := try(cfg, spec, only)
		if err != nil {
			return nil, err
		}
		if bad {
			best = res.Choices
		}
	}
	for len(best) > 0 && best[len(best)-1] == 0 {
		best = best[:len(best)-1]
	}
	return best, nil
}

func nonzero(cs []int64) int {
	n := 0
	for _, v := range cs {
		if v != 0 {
			n++
		}
	}
	return n
}
