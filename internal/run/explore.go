package run

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/node"
	"ringlab/internal/sim"
	"ringlab/internal/trace"
)

// ExploreFlags are the flags of an `explore` command on top of Flags.
func ExploreFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "schedules", Value: 1000, Usage: "how many seeded schedules to try (1..10000000)"},
	}
}

// judge adapts a checker set to sim.Judge.
type judge struct{ set *check.Set }

func (j judge) Observe(e *trace.Event) { j.set.Observe(e) }
func (j judge) Violated() bool         { return j.set.Violated() }
func (j judge) Final(res sim.Result) bool {
	end := check.End{Terminated: res.Quiescent, Why: "step budget exhausted", Messages: res.Messages}
	for _, v := range j.set.Finish(end) {
		if !v.OK {
			return true
		}
	}
	return false
}

// Explore runs spec under many seeds on the simulator (from --seed on,
// default 1) and prints either that no schedule violated a property or the
// shrunk violating schedule, replayed in full, with its replay command.
func Explore(ctx context.Context, c *cli.Context, spec Spec, opts Options, stdout, stderr io.Writer) error {
	schedules := c.Int("schedules")
	if schedules < 1 || schedules > 10_000_000 {
		return cliutil.Usagef("--schedules must be between 1 and 10000000, got %d", schedules)
	}
	if opts.Runtime != "sim" {
		return cliutil.Usagef("explore runs on the simulator only; drop --runtime %s", opts.Runtime)
	}
	first := opts.Seed
	if opts.SeedDrawn {
		first = 1
	}
	script := append(append([]node.Action(nil), spec.Script...), opts.Script...)
	x := sim.Explore{
		Config: sim.Config{
			Nodes: spec.Nodes, Factory: spec.Factory, Policy: opts.Policy, Delay: opts.Latency,
			Faults: opts.Faults, Script: script, React: spec.React, MaxSteps: opts.MaxSteps,
			Messages: true, Cancel: ctx.Done(),
		},
		Schedules: schedules,
		FirstSeed: first,
		NewJudge:  func() sim.Judge { return judge{check.NewSet(spec.checkers()...)} },
	}
	bar := newProgress(stderr, int64(schedules), "schedules")
	x.Progress = func(runs int) { bar.set(int64(runs)) }
	found, err := x.Run()
	bar.done()
	if err != nil {
		return err
	}
	if found.Interrupted || (ctx.Err() != nil && !found.Violating) {
		fmt.Fprintf(stdout, "interrupted after %d of %d schedules (seeds %d..%d): no violation so far\n",
			found.Runs, schedules, first, first+uint64(found.Runs)-1)
		return ctx.Err()
	}
	if !found.Violating {
		lat := opts.Latency
		if opts.Policy == sim.PolicyRandom && lat.Min == lat.Max {
			lat.Max = lat.Min + 9 // the simulator widens a single latency to [min, min+9] under this policy
		}
		fmt.Fprintf(stdout, "no violation in %d schedules (seeds %d..%d, policy %s, latency %d-%d)\n",
			found.Runs, first, first+uint64(found.Runs)-1, opts.Policy, lat.Min, lat.Max)
		return nil
	}
	sched := FormatSchedule(found.Choices)
	fmt.Fprintf(stdout, "violation found by schedule %d of %d (seed %d); shrunk from %d to %d non-default decisions: %s\n\n",
		found.Runs, schedules, found.Seed, found.Original, countNonzero(found.Choices), sched)
	// Replay the shrunk schedule in full, with checkers and rendering.
	opts.Seed, opts.SeedDrawn, opts.Schedule = found.Seed, false, found.Choices
	if len(opts.Schedule) == 0 {
		opts.Schedule = []int64{0}
	}
	replay := replayBase(c) + fmt.Sprintf(" --seed %d --schedule %s", found.Seed, sched)
	if ctx.Err() != nil { // interrupted while shrinking: the schedule so far still violates
		fmt.Fprintf(stdout, "interrupted while shrinking; replay: %s\n", replay)
		return ctx.Err()
	}
	_, err = Execute(ctx, spec, opts, replay, stdout, stderr)
	return err
}

// replayBase is the run command (explore's path without "explore") with
// the user's flags, less those that only explore has.
func replayBase(c *cli.Context) string {
	var parts []string
	for _, w := range strings.Fields(Replay(c, 0, "seed", "schedules", "schedule")) {
		if w != "explore" {
			parts = append(parts, w)
		}
	}
	return strings.Join(parts[:len(parts)-2], " ") // without "--seed 0"
}

func countNonzero(cs []int64) int {
	n := 0
	for _, v := range cs {
		if v != 0 {
			n++
		}
	}
	return n
}
