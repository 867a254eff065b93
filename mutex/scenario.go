package mutex

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/engine"
	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
)

// scenario is one of the chapter's worked examples or failure scenarios,
// replayed exactly: a simulator run with a fixed script, faults and
// latencies (or, for lamport-nonfifo, an exploration).
type scenario struct {
	name, usage string
	about       string // printed first: what the source says, what to look for
	want        int    // exit code with the default flags
	flags       func() []cli.Flag
	build       func(c *cli.Context) (setup, error)
	explore     func(c *cli.Context) []string // the explore command line it runs instead
}

// setup is a scenario's run: the algorithm, the scripted requests and
// faults, CS times, and the nodes' names in the transcript.
type setup struct {
	plan   func() (plan, error)
	script []node.Action
	cs     int64
	csFor  map[int]int64
	slow   []sim.Slow
	names  func(int) string
}

func scenarioCommand() *cli.Command {
	var subs []*cli.Command
	for _, s := range scenarios() {
		flags := []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: trace.FormatUsage},
			&cli.StringFlag{Name: "out", Usage: "write the rendered output to `FILE` instead of standard output"},
			&cli.StringFlag{Name: "events", Usage: "also write the NDJSON event log to `FILE`"},
			&cli.BoolFlag{Name: "vc", Usage: "add vector clocks to events and show them in the text output"},
		}
		if s.flags != nil {
			flags = append(flags, s.flags()...)
		}
		flags = rcli.WithLang(append(flags, rcli.ServeFlags()...))
		subs = append(subs, &cli.Command{
			Name: s.name, Usage: s.usage, Description: s.about,
			UsageText: fmt.Sprintf("ringlab mutex scenario %s [flags]\n\nExample (exit code %d):\n   ringlab mutex scenario %s", s.name, s.want, s.name),
			Flags:     flags,
			Action:    s.action,
		})
	}
	return &cli.Command{
		Name:  "scenario",
		Usage: "replay a worked example or failure scenario of the course chapter by name",
		UsageText: "ringlab mutex scenario NAME [flags]\n\n" +
			"Example (Ricart-Agrawala with N32, N12 and N80):\n   ringlab mutex scenario ra-seed001",
		Subcommands: subs,
	}
}

func (s scenario) action(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	format := c.String("format")
	if _, err := trace.NewRenderer(format, nil); err != nil {
		return cliutil.Usagef("--format: %v", err)
	}
	if _, err := rcli.ParseLang(c); err != nil {
		return err
	}
	if s.explore != nil {
		return s.runExplore(c)
	}
	spec, opts, replay, err := s.prepare(c)
	if err != nil {
		return err
	}
	_, err = rcli.Execute(c.Context, spec, opts, replay, c.App.Writer, c.App.ErrWriter)
	return err
}

// prepare builds the scenario's run from the flags of c: its System, the
// engine options it runs with, and its replay line.
func (s scenario) prepare(c *cli.Context) (engine.System, rcli.Options, string, error) {
	format := c.String("format")
	st, err := s.build(c)
	if err != nil {
		return engine.System{}, rcli.Options{}, "", err
	}
	pl, err := st.plan()
	if err != nil {
		return engine.System{}, rcli.Options{}, "", cliutil.Usagef("%v", err)
	}
	if st.names != nil {
		pl.names = st.names
	}
	spec, last := newSpec("mutex scenario "+s.name, pl, kit.Workload{CS: st.cs, CSFor: st.csFor, Script: st.script})
	name := pl.names
	spec.Names = name
	figures := spec.Figures
	spec.Figures = func(o *trace.Summary) map[string]any {
		m := figures(o)
		m["entry order"] = strings.Join(last.entryOrder(name), ", ")
		return m
	}
	in, _ := rcli.ParseLang(c) // action has read it
	opts := rcli.Options{
		Lang: in, Runtime: "sim", Seed: 1, Format: format, Events: c.String("events"), Out: c.String("out"), VectorClocks: c.Bool("vc"),
		Latency: sim.Delay{Min: 1, Max: 1}, Faults: sim.Faults{Slow: st.slow}, MaxSteps: 1_000_000,
		Serving: rcli.ParseServe(c),
	}
	if format == "text" && !c.IsSet("out") {
		opts.Intro = s.about + "\n\n"
	}
	return spec, opts, strings.TrimSuffix(rcli.Replay(c, 1), " --seed 1"), nil
}

// planOf is the plan that build makes of cfg, for a scenario.
func planOf[C any](build func(C) (plan, error), cfg C) func() (plan, error) {
	return func() (plan, error) { return build(cfg) }
}

// runExplore runs the scenario's explore command line in a fresh app with
// the same writers, after printing it.
func (s scenario) runExplore(c *cli.Context) error {
	args := s.explore(c)
	if c.String("format") == "text" {
		fmt.Fprintf(c.App.Writer, "%s\n\n$ %s\n", s.about, strings.Join(args, " "))
	}
	app := &cli.App{
		Name: "ringlab", Commands: []*cli.Command{Command()},
		Writer: c.App.Writer, ErrWriter: c.App.ErrWriter,
		ExitErrHandler: func(*cli.Context, error) {},
	}
	cliutil.Prepare(app.Commands)
	return app.RunContext(c.Context, args)
}

// rebuildScenario is the run of a scenario command line (the words after
// "ringlab mutex": scenario NAME [flags]), for `ringlab check --from`; ok
// is false for anything else, and for a scenario that explores.
func rebuildScenario(ctx context.Context, args []string) (sys engine.System, opts rcli.Options, replay string, ok bool, err error) {
	if len(args) < 2 || args[0] != "scenario" {
		return sys, opts, "", false, nil
	}
	for _, sc := range scenarios() {
		if sc.name != args[1] || sc.explore != nil {
			continue
		}
		cmd := scenarioCommand()
		for _, sub := range cmd.Subcommands {
			sub.Action = func(c *cli.Context) error {
				if err := cliutil.NoArgs(c); err != nil {
					return err
				}
				sys, opts, replay, err = sc.prepare(c)
				return err
			}
		}
		err = rcli.ParseOnly(ctx, "mutex", cmd, args)
		return sys, opts, replay, true, err
	}
	return sys, opts, "", false, nil
}
