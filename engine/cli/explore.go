package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

// ExploreFlags are the flags of an `explore` command on top of Flags.
func ExploreFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.IntFlag{Name: "schedules", Value: 1000, Usage: "how many seeded schedules to try (1..10000000)"},
	}
}

// HideRunOnly hides, in an explore command's help, the run flags explore
// refuses: it runs on the simulator only (--runtime, --scheduler, --url,
// --tick) and writes its own --schedule into the replay it prints. They
// stay defined, for that replay and for the refusal that names them.
func HideRunOnly(flags []ucli.Flag) []ucli.Flag {
	for _, f := range flags {
		switch f := f.(type) {
		case *ucli.StringFlag:
			f.Hidden = f.Hidden || slices.Contains([]string{"runtime", "scheduler", "url", "schedule"}, f.Name)
		case *ucli.DurationFlag:
			f.Hidden = f.Hidden || f.Name == "tick"
		}
	}
	return flags
}

// judge adapts a checker set to sim.Judge.
type exploreJudge struct{ set *check.Set }

func (j exploreJudge) Observe(e *trace.Event) { j.set.Observe(e) }
func (j exploreJudge) Violated() bool         { return j.set.Violated() }
func (j exploreJudge) Final(res engine.Result) bool {
	end := check.End{Terminated: res.End == engine.Quiescent, Why: "step budget exhausted", Messages: res.Messages}
	for _, v := range j.set.Finish(end) {
		if !v.OK {
			return true
		}
	}
	return false
}

// Explore is the action of an `explore` command, which Area.Command
// makes for every algorithm: it runs the System build makes (a fresh one
// per schedule) under many seeds on the simulator (from --seed on, or
// from a drawn seed it prints) and prints either that no schedule violated
// a property or the shrunk violating schedule, replayed in full, with its
// replay command. Call it directly only for a command of your own that
// ExploreFlags and Flags parse.
//
// A command with a --property flag may name one property (as
// check.Select reads it): then only its checkers judge the schedules.
func Explore(ctx context.Context, c *ucli.Context, build func() (engine.System, error), opts Options, stdout, stderr io.Writer) error {
	sys, err := build()
	if err != nil {
		return err
	}
	var only []string
	if err := OneValue(c, "property", "explore looks for one property, or for every one without --property"); err != nil {
		return err
	}
	if c.IsSet("property") {
		only = []string{c.String("property")}
		if _, err := restrict(sys.Properties, only); err != nil {
			return err
		}
	}
	// every schedule is judged by the properties of a System of its own
	properties := func() []check.Property {
		fresh, err := build()
		if err != nil { // it was built once already from the same flags
			panic(fmt.Sprintf("cli: a System built once fails the second time: %v", err))
		}
		ps, _ := check.Select(fresh.Properties, only)
		return ps
	}
	schedules, first, err := ExploreStart(c, opts, stderr)
	if err != nil {
		return err
	}
	sys.Script = withFaults(sys.Script, opts.Script)
	x := sim.Explore{
		Runtime:   sim.Runtime{Policy: opts.Policy, Delay: opts.Latency, Faults: opts.Faults, MaxSteps: opts.MaxSteps},
		System:    sys,
		Schedules: schedules,
		FirstSeed: first,
		NewJudge:  func() sim.Judge { return exploreJudge{check.NewSet(properties()...)} },
	}
	bar := newProgress(stderr, int64(schedules), "schedules")
	x.Progress = func(runs int) { bar.set(int64(runs)) }
	found, err := x.Run(ctx)
	bar.done()
	if err != nil {
		return err
	}
	if found.Interrupted || (ctx.Err() != nil && !found.Violating) {
		fmt.Fprintf(ExploreNotes(opts, stdout, stderr), "interrupted after %d of %d schedules (seeds %d..%d): no violation so far\n",
			found.Runs, schedules, first, first+uint64(found.Runs)-1)
		return ctx.Err()
	}
	if !found.Violating {
		lat := opts.Latency
		if opts.Policy == sim.PolicyRandom && lat.Min == lat.Max {
			lat.Max = lat.Min + 9 // the simulator widens a single latency to [min, min+9] under this policy
		}
		fmt.Fprintf(ExploreNotes(opts, stdout, stderr), "no violation in %d schedules (seeds %d..%d, policy %s, latency %d-%d)\n",
			found.Runs, first, first+uint64(found.Runs)-1, opts.Policy, lat.Min, lat.Max)
		return nil
	}
	sched := FormatSchedule(found.Choices)
	fmt.Fprintf(ExploreNotes(opts, stdout, stderr), "violation found by schedule %d of %d (seed %d); shrunk from %d to %d non-default decisions: %s\n\n",
		found.Runs, schedules, found.Seed, found.Original, sim.Decisions(found.Choices), sched)
	// Replay the shrunk schedule in full, with checkers and rendering.
	opts.Seed, opts.SeedDrawn, opts.Schedule = found.Seed, false, found.Choices
	if len(opts.Schedule) == 0 {
		opts.Schedule = []int64{0}
	}
	replay := ExploreReplay(c, found.Seed, sched)
	if ctx.Err() != nil { // interrupted while shrinking: the schedule so far still violates
		fmt.Fprintf(ExploreNotes(opts, stdout, stderr), "interrupted while shrinking; replay: %s\n", replay)
		return ctx.Err()
	}
	if sys, err = build(); err != nil {
		return err
	}
	_, err = Execute(ctx, sys, opts, replay, stdout, stderr)
	return err
}

// ExploreStart checks an explore command's own flags and returns how many
// schedules to try and the first seed: --seed, or a drawn seed printed on
// stderr with the command that repeats the sweep.
func ExploreStart(c *ucli.Context, opts Options, stderr io.Writer) (schedules int, first uint64, err error) {
	schedules = c.Int("schedules")
	switch {
	case schedules < 1 || schedules > 10_000_000:
		return 0, 0, cliutil.Usagef("--schedules must be between 1 and 10000000, got %d", schedules)
	case opts.Runtime != "sim":
		return 0, 0, cliutil.Usagef("explore runs on the simulator only; drop --runtime %s", opts.Runtime)
	case c.IsSet("schedule"):
		return 0, 0, cliutil.Usagef("--schedule replays one schedule: give it to the run command, not to explore, which tries --schedules of them")
	}
	if opts.DryRun {
		return 0, opts.Seed, nil
	}
	if opts.SeedDrawn {
		fmt.Fprintf(stderr, "seeds from %d (repeat with: %s)\n", opts.Seed, Replay(c, opts.Seed))
	}
	return schedules, opts.Seed, nil
}

// ExploreNotes is where explore writes its own lines (what it tried, what
// it found): stdout above a text replay, stderr otherwise, so that stdout
// under --format json is the replayed run's NDJSON log from its first line.
func ExploreNotes(opts Options, stdout, stderr io.Writer) io.Writer {
	if opts.Format == "text" {
		return stdout
	}
	return stderr
}

// ExploreReplay is the run command that replays schedule sched of seed:
// explore's command line without "explore" and the flags only explore has,
// with --schedule, written as the run command writes its own replay (so the
// replayed run prints the same line).
func ExploreReplay(c *ucli.Context, seed uint64, sched string) string {
	_ = c.Set("schedule", sched)
	return strings.Replace(Replay(c, seed, "schedules", "property"), " explore ", " ", 1)
}
