package cli

import (
	"context"
	"io"
	"math/rand/v2"
	"slices"

	ucli "github.com/urfave/cli/v2"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/runner"
	"ringlab/internal/statespace"
)

// Area is an area's list of Algorithm values, from which every command an
// algorithm gets is made: `ringlab AREA ALGO` runs it (on the simulator,
// goroutines or RabbitMQ), `ringlab AREA explore ALGO` tries many seeded
// schedules, `ringlab AREA check ALGO` searches every state of a small
// system. Adding an algorithm to an area is one entry in Algorithms.
type Area struct {
	Name       string // the command: "mutex"
	Usage      string
	Example    string // the area command's example, if any
	Algorithms []engine.Algorithm
	// Extra are the area's own commands beside its algorithms'
	// (scenarios, compare).
	Extra []*ucli.Command
	// ExploreExample and CheckExample, if set, are the examples of the
	// explore and check commands' help; ExploreArgs, the flags that
	// every algorithm's explore example gives after its name ("--nodes 3
	// --schedules 10000").
	ExploreExample, CheckExample string
	ExploreArgs                  string
}

// Command is the area's command tree.
func (a Area) Command() *ucli.Command {
	var runs, explore, check []*ucli.Command
	for _, alg := range a.Algorithms {
		runs = append(runs, a.runCommand(alg))
		explore = append(explore, a.exploreCommand(alg))
		check = append(check, a.checkCommand(alg))
	}
	subs := append(runs, a.Extra...)
	subs = append(subs,
		&ucli.Command{Name: "explore", Usage: "run an algorithm under many seeded schedules and show the shortest violating one",
			UsageText: withExample("ringlab "+a.Name+" explore ALGORITHM --schedules N [flags of the algorithm]", a.ExploreExample), Subcommands: explore},
		&ucli.Command{Name: "check", Usage: "exhaustive state-space search: every interleaving of a small system, shortest counterexample",
			UsageText: withExample("ringlab "+a.Name+" check ALGORITHM [flags]", a.CheckExample), Subcommands: check})
	return &ucli.Command{Name: a.Name, Usage: a.Usage, UsageText: withExample("ringlab "+a.Name+" ALGORITHM [flags]", a.Example), Subcommands: subs}
}

func (a Area) runCommand(alg engine.Algorithm) *ucli.Command {
	return &ucli.Command{
		Name: alg.Name, Usage: alg.Usage, Description: alg.Description,
		UsageText: usageText("ringlab "+a.Name+" "+alg.Name, alg.Example),
		Flags:     append(ParamFlags(alg), runner.Flags()...),
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			sys, opts, err := build(c, alg)
			if err != nil {
				return err
			}
			_, err = runner.Execute(c.Context, sys, opts, runner.Replay(c, opts.Seed), c.App.Writer, c.App.ErrWriter)
			return err
		},
	}
}

func (a Area) exploreCommand(alg engine.Algorithm) *ucli.Command {
	flags := append(runner.HideRunOnly(append(ParamFlags(alg), runner.Flags()...)), runner.ExploreFlags()...)
	flags = append(flags, &ucli.StringFlag{Name: "property", Usage: "look for violations of this property only (default: any)"})
	exploreExample := ""
	if a.ExploreArgs != "" {
		exploreExample = "ringlab " + a.Name + " explore " + alg.Name + " " + a.ExploreArgs
	}
	return &ucli.Command{
		Name: alg.Name, Usage: "explore " + alg.Name + " under many seeded schedules (simulator)",
		UsageText: withExample("ringlab "+a.Name+" explore "+alg.Name+" --schedules N [flags]", exploreExample),
		Flags:     flags,
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			_, opts, err := build(c, alg)
			if err != nil {
				return err
			}
			again := func() (engine.System, error) { sys, _, err := build(c, alg); return sys, err }
			return runner.Explore(c.Context, c, again, opts, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (a Area) checkCommand(alg engine.Algorithm) *ucli.Command {
	alg = alg.ForCheck()
	return &ucli.Command{
		Name: alg.Name, Usage: "explore every reachable state of " + alg.Name + " (exhaustive state-space search)",
		Description: alg.Description,
		UsageText:   usageText("ringlab "+a.Name+" check "+alg.Name, alg.Example),
		Flags:       append(ParamFlags(alg), runner.CheckFlags()...),
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			env := engine.Env{Runtime: "sim", MaxDelay: 1, MaxDepth: c.Int("max-depth")}
			ps, err := ReadParams(c, alg)
			if err != nil {
				return err
			}
			sys, err := build1(alg, ps, env)
			if err != nil {
				return err
			}
			if sys.Nodes > statespace.MaxNodes {
				return cliutil.Usagef("an exhaustive check takes at most %d nodes, got %d", statespace.MaxNodes, sys.Nodes)
			}
			fresh := func() []check.Property { // every terminal state is judged by properties of their own
				again, _ := alg.Build(ps, env) // it was built once already from the same parameters
				return again.Properties
			}
			sc := statespace.Config{Nodes: sys.Nodes, Factory: sys.Factory, Script: sys.Script, Workload: sys.Workload, Checks: fresh,
				Within: sys.Within, Bound: sys.Bound}
			return runner.Check(c.Context, c, sys, sc, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// build reads alg's parameters and the engine flags of c, and builds the
// System for the run they describe, in the run's Env (its seed: --seed, or
// one drawn here and printed by the run).
func build(c *ucli.Context, alg engine.Algorithm) (engine.System, runner.Options, error) {
	seed, drawn := c.Uint64("seed"), !c.IsSet("seed")
	if drawn {
		seed = rand.Uint64N(1 << 32)
	}
	env := engine.Env{Seed: seed, Runtime: c.String("runtime"), MaxDelay: maxDelay(c)}
	sys, err := Build(c, alg, env)
	if err != nil {
		return sys, runner.Options{}, err
	}
	opts, err := runner.Parse(c, sys.Nodes)
	opts.Seed, opts.SeedDrawn = seed, drawn
	return sys, opts, err
}

// maxDelay is the longest a message may take on the simulator under the
// flags of c (a bad --latency is reported by runner.Parse, afterwards).
func maxDelay(c *ucli.Context) int64 {
	d, err := runner.ParseLatency(c.String("latency"))
	if err != nil {
		return 1
	}
	if c.String("policy") == "random" && d.Min == d.Max {
		d.Max = d.Min + 9 // the simulator widens a single latency so under this policy
	}
	return d.Max
}

func usageText(cmd, example string) string { return withExample(cmd+" [flags]", example) }

// withExample is a command's usage line, and its example if it has one.
func withExample(usage, example string) string {
	if example == "" {
		return usage
	}
	return usage + "\n\nExample:\n   " + example
}

// Names lists the area's algorithms by name.
func (a Area) Names() []string {
	names := make([]string, len(a.Algorithms))
	for k, alg := range a.Algorithms {
		names[k] = alg.Name
	}
	return slices.Clip(names)
}

// Rebuild reads a command line of one of the area's run commands (the
// words after "ringlab AREA") and builds the System and options that run
// had, and the replay line the run printed (a run on goroutines or
// RabbitMQ names no seed): `ringlab check --from` judges a saved log by
// them. It reports false when the command is not an algorithm's run
// command.
func (a Area) Rebuild(ctx context.Context, args []string) (sys engine.System, opts runner.Options, replay string, ok bool, err error) {
	if len(args) == 0 {
		return sys, opts, "", false, nil
	}
	alg, ok := engine.Find(a.Algorithms, args[0])
	if !ok {
		return sys, opts, "", false, nil
	}
	cmd := a.runCommand(alg)
	cmd.Action = func(c *ucli.Context) (err error) {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		sys, opts, err = build(c, alg)
		replay = runner.Replay(c, opts.Seed)
		return err
	}
	area := &ucli.Command{Name: a.Name, Subcommands: []*ucli.Command{cmd}} // the replay names the area
	app := &ucli.App{Name: "ringlab", Commands: []*ucli.Command{area}, Writer: io.Discard, ErrWriter: io.Discard,
		ExitErrHandler: func(*ucli.Context, error) {}}
	cliutil.Prepare(app.Commands)
	err = app.RunContext(ctx, append([]string{"ringlab", a.Name}, args...))
	return sys, opts, replay, true, err
}
