package cli

import (
	"cmp"
	"context"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/statespace"
)

// Area is an area's list of Algorithm values, from which every command an
// algorithm gets is made: `ringlab AREA ALGO` runs it (on the simulator,
// goroutines or RabbitMQ), `ringlab AREA explore ALGO` tries many seeded
// schedules, `ringlab AREA check ALGO` searches every state of a small
// system, `ringlab AREA vet ALGO` lints its node (engine/vet). Adding an
// algorithm to an area is one entry in Algorithms.
type Area struct {
	Name       string             // the command: "mutex"
	Usage      string             // one line for the command list
	Algorithms []engine.Algorithm // each becomes `AREA NAME`, `AREA explore NAME` and `AREA check NAME`
	// Extra are the area's own commands beside its algorithms'
	// (scenarios, compare).
	Extra []*ucli.Command
	// Example, ExploreExample and CheckExample, if set, end the help of
	// `AREA`, `AREA explore` and `AREA check` ("Example (...):\n   ringlab ...").
	Example, ExploreExample, CheckExample string
	// Properties, if set, lists the property names explore's --property
	// takes, for its help.
	Properties string
	// CheckDescription, if set, is the help of every `AREA check ALGO`:
	// what the search explores and where it judges which property.
	CheckDescription string
	// RebuildExtra, if set, rebuilds the run of one of the area's own
	// commands (Extra) from its command line, as Rebuild does an
	// algorithm's: a log that command wrote is judged the same way.
	RebuildExtra func(ctx context.Context, args []string) (sys engine.System, opts Options, replay string, ok bool, err error)
	// ExploreArgs, if set, are the flags that every algorithm's explore
	// example gives after its name ("--nodes 3 --schedules 10000"), for
	// an algorithm without an ExploreExample of its own.
	ExploreArgs string
	// Node, if set, is how `ringlab node` and `ringlab amqp` run the
	// area's algorithms one node per process over a broker.
	Node *NodeRuns
}

// NodeRuns is what the node commands need of an area beyond its
// algorithms: the node command's flags it takes, and the run one
// algorithm's subcommand builds from them.
type NodeRuns struct {
	Flags []string // of ids, nodes, lang, requests: passed on to the subcommand as given
	// Spec builds the run of algorithm name from the flags passed on, for
	// the node at index (initiator: it starts the run, where the area
	// has starters).
	Spec func(name string, args []string, index int, initiator bool) (engine.System, error)
	// Exit, if set, maps the error of a node process's run to the exit
	// its algorithm's own command gives for the same outcome.
	Exit func(error) error
}

// Command is the area's command tree.
func (a Area) Command() *ucli.Command {
	var runs, explore, check, vet []*ucli.Command
	for _, alg := range a.Algorithms {
		runs = append(runs, a.runCommand(alg))
		explore = append(explore, a.exploreCommand(alg))
		check = append(check, a.checkCommand(alg))
		vet = append(vet, a.vetCommand(alg))
	}
	subs := append(runs, a.Extra...)
	subs = append(subs,
		&ucli.Command{Name: "explore", Usage: "run an algorithm under many seeded schedules and show the shortest violating one",
			UsageText: withExample("ringlab "+a.Name+" explore ALGORITHM --schedules N [flags of the algorithm]", a.ExploreExample), Subcommands: explore},
		&ucli.Command{Name: "check", Usage: "exhaustive state-space search: every interleaving of a small system, shortest counterexample",
			UsageText: withExample("ringlab "+a.Name+" check ALGORITHM [flags]", a.CheckExample), Subcommands: check},
		&ucli.Command{Name: "vet", Usage: "lint an algorithm's node: determinism, clone, key, codec, clock",
			UsageText: withExample("ringlab "+a.Name+" vet ALGORITHM [flags of its check]", a.vetExample()), Subcommands: vet})
	return &ucli.Command{Name: a.Name, Usage: a.Usage, UsageText: withExample("ringlab "+a.Name+" ALGORITHM [flags]", a.Example), Subcommands: subs}
}

// vetExample is the example of `AREA vet`: the area's first algorithm.
func (a Area) vetExample() string {
	if len(a.Algorithms) == 0 {
		return ""
	}
	return "Example:\n   ringlab " + a.Name + " vet " + a.Algorithms[0].Name
}

// withExample ends a command's usage with its example, if any.
func withExample(usage, example string) string {
	if example == "" {
		return usage
	}
	return usage + "\n\n" + example
}

func (a Area) runCommand(alg engine.Algorithm) *ucli.Command {
	return &ucli.Command{
		Name: alg.Name, Usage: alg.Usage, Description: alg.Description,
		UsageText: usageText("ringlab "+a.Name+" "+alg.Name, alg.Example),
		Flags:     WithLang(append(ParamFlags(alg), Flags()...)),
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			sys, opts, err := build(c, alg)
			if err != nil {
				return err
			}
			_, err = Execute(c.Context, sys, opts, Replay(c, opts.Seed), c.App.Writer, c.App.ErrWriter)
			return err
		},
	}
}

func (a Area) exploreCommand(alg engine.Algorithm) *ucli.Command {
	flags := append(HideRunOnly(append(ParamFlags(alg), Flags()...)), ExploreFlags()...)
	only := "look for violations of this property only (default: any)"
	if a.Properties != "" {
		only = "look for violations of this property only: " + a.Properties + " (default: any)"
	}
	flags = append(flags, SingleFlag("property", only+"; once: explore looks for one property or for all"))
	example := alg.ExploreExample
	if example == "" && a.ExploreArgs != "" {
		example = "ringlab " + a.Name + " explore " + alg.Name + " " + a.ExploreArgs
	}
	return &ucli.Command{
		Name: alg.Name, Usage: "explore " + alg.Name + " under many seeded schedules (simulator)",
		Description: alg.Description,
		UsageText:   usageText("ringlab "+a.Name+" explore "+alg.Name+" --schedules N", example),
		Flags:       flags,
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			_, opts, err := build(c, alg)
			if err != nil {
				return err
			}
			if err := pin(c, alg, opts.Seed); err != nil {
				return err
			}
			again := func() (engine.System, error) { sys, _, err := build(c, alg); return sys, err }
			return Explore(c.Context, c, again, opts, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (a Area) checkCommand(alg engine.Algorithm) *ucli.Command {
	alg = alg.ForCheck()
	return &ucli.Command{
		Name: alg.Name, Usage: "explore every reachable state of " + alg.Name + " (exhaustive state-space search)",
		Description: cmp.Or(a.CheckDescription, alg.Description),
		UsageText:   usageText("ringlab "+a.Name+" check "+alg.Name, alg.CheckExample),
		Flags:       WithLang(append(searchParamFlags(alg, "check"), CheckFlags()...)),
		Action: func(c *ucli.Context) error {
			if err := cliutil.NoArgs(c); err != nil {
				return err
			}
			env := engine.Env{Runtime: "sim", MaxDelay: 1, MaxDepth: c.Int("max-depth"), MaxFlight: c.Int("max-flight"), AnyOrder: c.String("policy") == "random"}
			ps, err := ReadParams(c, alg)
			if err != nil {
				return err
			}
			sys, sc, err := statespace.For(alg, ps, env)
			if err != nil && cliutil.Code(err) != cliutil.ExitUsage {
				err = cliutil.Usagef("%v", err)
			}
			if err != nil {
				return err
			}
			if sys.Nodes > statespace.MaxNodes {
				return tooManyNodes("an exhaustive check", sys.Nodes)
			}
			if len(sys.Slow) > 0 {
				return cliutil.Usagef("this scenario needs the simulator's slow links; an exhaustive check has no time: use --timers any for a timeout shorter than a message")
			}
			if err := derivable(sys); err != nil {
				return err
			}
			return Check(c.Context, c, sys, sc, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// build reads alg's parameters and the engine flags of c, and builds the
// System for the run they describe, in the run's Env: its seed (--seed,
// or one drawn here, printed by the run and set as --seed, so that every
// System explore and check rebuild from c has the same random layout),
// and the user's scripted faults. The System's slow links join the
// simulator's faults.
func build(c *ucli.Context, alg engine.Algorithm) (engine.System, Options, error) {
	seed, drawn := c.Uint64("seed"), !c.IsSet("seed")
	if drawn {
		seed = rand.Uint64N(1 << 32)
		if err := c.Set("seed", strconv.FormatUint(seed, 10)); err != nil {
			return engine.System{}, Options{}, err
		}
	}
	faults, err := ParseScript(c, math.MaxInt) // the node indices are checked by Parse
	if err != nil {
		return engine.System{}, Options{}, err
	}
	env := engine.Env{Seed: seed, Runtime: c.String("runtime"), MaxDelay: maxDelay(c), Faults: faults}
	sys, err := Build(c, alg, env)
	if err != nil {
		return sys, Options{}, err
	}
	opts, err := Parse(c, sys.Nodes)
	opts.Seed, opts.SeedDrawn = seed, drawn
	opts.Faults.Slow = append(opts.Faults.Slow, sys.Slow...)
	return sys, opts, err
}

// pin gives c the parameters alg.Pin names for a run of seed, as if the
// user had: every System explore builds from c, and its replay, keep what
// the first drew from the seed.
func pin(c *ucli.Context, alg engine.Algorithm, seed uint64) error {
	if alg.Pin == nil {
		return nil
	}
	ps, err := ReadParams(c, alg)
	if err != nil {
		return err
	}
	pins := alg.Pin(ps, engine.Env{Seed: seed, Runtime: c.String("runtime"), MaxDelay: maxDelay(c)})
	for _, name := range slices.Sorted(maps.Keys(pins)) {
		if err := c.Set(name, pins[name]); err != nil {
			return err
		}
	}
	return nil
}

// maxDelay is the longest a message may take on the simulator under the
// flags of c (a bad --latency is reported by Parse, afterwards).
func maxDelay(c *ucli.Context) int64 {
	d, err := ParseLatency(c.String("latency"))
	if err != nil {
		return 1
	}
	if c.String("policy") == "random" && d.Min == d.Max {
		d.Max = d.Min + 9 // the simulator widens a single latency so under this policy
	}
	return d.Max
}

// usageText is an algorithm command's usage line, and its example (a
// command line) if it has one.
func usageText(cmd, example string) string {
	if example == "" {
		return cmd + " [flags]"
	}
	return withExample(cmd+" [flags]", "Example:\n   "+example)
}

// Names lists the area's algorithms by name.
func (a Area) Names() []string {
	names := make([]string, len(a.Algorithms))
	for k, alg := range a.Algorithms {
		names[k] = alg.Name
	}
	return slices.Clip(names)
}

// Rebuild reads a command line of one of the area's runs (the words after
// "ringlab AREA": an algorithm's run command, or one RebuildExtra knows)
// and builds the System and options that run had, and the replay line the
// command writes for them: `ringlab check --from` judges a saved log by
// them, by an explicit call. It reports false when the command is no run.
func (a Area) Rebuild(ctx context.Context, args []string) (sys engine.System, opts Options, replay string, ok bool, err error) {
	if len(args) == 0 {
		return sys, opts, "", false, nil
	}
	alg, ok := engine.Find(a.Algorithms, args[0])
	if !ok {
		if a.RebuildExtra != nil {
			return a.RebuildExtra(ctx, args)
		}
		return sys, opts, "", false, nil
	}
	cmd := a.runCommand(alg)
	cmd.Action = func(c *ucli.Context) (err error) {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		sys, opts, err = build(c, alg)
		replay = Replay(c, opts.Seed)
		return err
	}
	return sys, opts, replay, true, ParseOnly(ctx, a.Name, cmd, args)
}

// ParseOnly runs cmd, a command of area, on args (the words after
// "ringlab AREA") in an app of its own that writes nothing: cmd's Action
// reads its flags, and a replay line it writes names the area.
func ParseOnly(ctx context.Context, area string, cmd *ucli.Command, args []string) error {
	top := &ucli.Command{Name: area, Subcommands: []*ucli.Command{cmd}}
	app := &ucli.App{Name: "ringlab", Commands: []*ucli.Command{top}, Writer: io.Discard, ErrWriter: io.Discard,
		ExitErrHandler: func(*ucli.Context, error) {}}
	cliutil.Prepare(app.Commands)
	return app.RunContext(ctx, append([]string{"ringlab", area}, args...))
}
