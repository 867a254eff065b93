package election

import (
	"github.com/urfave/cli/v2"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/runner"
	"ringlab/internal/sim"
	"ringlab/internal/statespace"
)

// checkCommand is `ringlab election check ALGO`: an exhaustive search of
// every state of a small election (not to be confused with re-checking a
// saved log).
func checkCommand() *cli.Command {
	var subs []*cli.Command
	for _, a := range algos() {
		flags := commonFlags(a.def)
		if a.flags != nil {
			flags = append(flags, a.flags()...)
		}
		flags = append(flags, runner.CheckFlags()...)
		subs = append(subs, &cli.Command{
			Name:  a.name,
			Usage: "explore every reachable state of " + a.name + " (exhaustive state-space search)",
			Description: "Breadth-first search over every interleaving the simulator could produce: which message\n" +
				"is delivered next, which pending timer fires, and where --crashes/--restarts/--drops\n" +
				"strike. Uniqueness is checked at every step; termination, agreement and correctness at\n" +
				"every terminal state. A violation is reported with a shortest path and its --path replay.",
			UsageText: "ringlab election check " + a.name + " [flags]\n\nExample:\n   " + checkExample(a.name),
			Flags:     flags,
			Action:    a.checkAction,
		})
	}
	return &cli.Command{
		Name:  "check",
		Usage: "exhaustive state-space search: every interleaving of a small election, shortest counterexample",
		UsageText: "ringlab election check ALGORITHM [flags]\n\n" +
			"Example (every delivery order of the chapter's ring, every node starting):\n   ringlab election check ring --initiators all",
		Subcommands: subs,
	}
}

func checkExample(name string) string {
	switch name {
	case "anonymous":
		return "ringlab election check anonymous --nodes 3 --initiators all   (two leaders)"
	case "bully":
		return "ringlab election check bully --nodes 3 --initiators 1 --timers quiet\n" +
			"   ringlab election check bully --nodes 3 --initiators 2   (a timeout shorter than a message: two leaders)"
	case "yoyo":
		return "ringlab election check yoyo --graph 1-2,2-3,3-1"
	}
	return "ringlab election check " + name + " --nodes 4 --initiators all"
}

func (a algo) checkAction(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	var n int
	var err error
	if a.count != nil {
		n, err = a.count(c)
	} else {
		n, err = nodeCount(c, a.def, max(len(a.def.ids), a.def.nodes, a.def.minNodes))
	}
	if err != nil {
		return err
	}
	if n > statespace.MaxNodes {
		return cliutil.Usagef("an exhaustive check takes at most %d nodes, got %d", statespace.MaxNodes, n)
	}
	opts := runner.Options{Runtime: "sim", Latency: sim.Delay{Min: 1, Max: 1}}
	s, err := parseSetup(c, a.def, n, 0)
	if err != nil {
		return err
	}
	spec, err := a.build(c, s, &opts)
	if err != nil {
		return err
	}
	if len(opts.Faults.Slow) > 0 || len(opts.Faults.Partitions) > 0 {
		return cliutil.Usagef("this scenario needs the simulator's slow links; an exhaustive check has no time: use --timers any for a timeout shorter than a message")
	}
	spec.Name, spec.Nodes = "election "+a.name, n
	// Uniqueness, among the run's properties, is judged at every step;
	// every terminal state by properties of a System of its own.
	fresh := func() []check.Property {
		o := opts
		sys, _ := a.build(c, s, &o) // built once already from the same flags
		return sys.Properties
	}
	sc := statespace.Config{Nodes: n, Factory: spec.Factory, Script: spec.Script, Checks: fresh}
	return runner.Check(c.Context, c, spec, sc, c.App.Writer, c.App.ErrWriter)
}
