// Package election holds the `ringlab election` command tree: one
// subcommand per leader-election algorithm of the course (ring, anonymous,
// idlist, chang-roberts, franklin, bully, yoyo), each run on the engine
// (internal/runner) with the election checkers — termination, uniqueness,
// agreement, correctness — plus `compare` (measured messages against the
// theory) and `explore` (many seeded schedules, shrunk to the shortest
// violating one). The algorithms themselves are the pure Step machines in
// the subpackages.
package election

import (
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/node"
	"ringlab/internal/runner"
	"ringlab/internal/trace"
)

// algo is one election subcommand.
type algo struct {
	name, usage, description, example string
	def                               defaults
	flags                             func() []cli.Flag // the algorithm's own flags, fresh per command
	// count returns the number of nodes; nil means --ids/--nodes or the
	// default ids.
	count func(c *cli.Context) (int, error)
	// build turns the parsed configuration into a run; it may add faults
	// to opts (a scenario's slow node).
	build func(c *cli.Context, s setup, opts *runner.Options) (engine.System, error)
}

// algos lists the election algorithms in the order of election/README.md.
func algos() []algo {
	return []algo{ringAlgo(), anonymousAlgo(), idlistAlgo(), changRobertsAlgo(), franklinAlgo(), bullyAlgo(), yoyoAlgo()}
}

// Command returns the `election` command tree.
func Command() *cli.Command {
	var subs, explore []*cli.Command
	for _, a := range algos() {
		subs = append(subs, a.command(false))
		explore = append(explore, a.command(true))
	}
	subs = append(subs, compareCommand(), checkCommand(), &cli.Command{
		Name:  "explore",
		Usage: "run an election under many seeded schedules and show the shortest violating one",
		UsageText: "ringlab election explore ALGORITHM --schedules N [flags of the algorithm]\n\n" +
			"Example (finds the anonymous ring's two leaders):\n   ringlab election explore anonymous --initiators all --schedules 100",
		Subcommands: explore,
	})
	return &cli.Command{
		Name:  "election",
		Usage: "leader election: the ring-election specification, the chapter's six algorithms, compare and explore",
		UsageText: "ringlab election ALGORITHM [flags]\n\n" +
			"Example (the ring-election specification's expected output):\n   ringlab election ring --lang pt",
		Subcommands: subs,
	}
}

func (a algo) command(explore bool) *cli.Command {
	flags := commonFlags(a.def)
	if a.flags != nil {
		flags = append(flags, a.flags()...)
	}
	flags = append(flags, runner.Flags()...)
	cmd := &cli.Command{
		Name: a.name, Usage: a.usage, Description: a.description,
		UsageText: "ringlab election " + a.name + " [flags]\n\nExample:\n   " + a.example,
		Flags:     flags,
		Action:    a.action(explore),
	}
	if explore {
		cmd.Flags = append(runner.HideRunOnly(flags), runner.ExploreFlags()...)
		cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: "property",
			Usage: "look for violations of this property only: uniqueness, agreement, correctness, termination (default: any)"})
		cmd.Usage = "explore " + a.name + " under many seeded schedules (simulator)"
		cmd.UsageText = "ringlab election explore " + a.name + " --schedules N [flags]\n\nExample:\n   " +
			exploreExample(a.name)
	}
	return cmd
}

func (a algo) action(explore bool) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		spec, opts, err := a.spec(c)
		if err != nil {
			return err
		}
		if explore {
			// one layout for every schedule, and the replay rebuilds it
			random := c.String("layout") == "random" || c.IsSet("topology") && c.String("topology") == "random"
			if random && !c.IsSet("layout-seed") && !c.IsSet("ids") {
				if err := c.Set("layout-seed", strconv.FormatUint(opts.Seed, 10)); err != nil {
					return err
				}
			}
			build := func() (engine.System, error) { sys, _, err := a.spec(c); return sys, err }
			return runner.Explore(c.Context, c, build, opts, c.App.Writer, c.App.ErrWriter)
		}
		_, err = runner.Execute(c.Context, spec, opts, runner.Replay(c, opts.Seed), c.App.Writer, c.App.ErrWriter)
		return err
	}
}

// spec parses every flag of a command line and builds its run.
func (a algo) spec(c *cli.Context) (spec engine.System, opts runner.Options, err error) {
	var n int
	if a.count != nil {
		n, err = a.count(c)
	} else {
		n, err = nodeCount(c, a.def, max(len(a.def.ids), a.def.nodes, a.def.minNodes))
	}
	if err != nil {
		return spec, opts, err
	}
	opts, err = runner.Parse(c, n)
	if err != nil {
		return spec, opts, err
	}
	s, err := parseSetup(c, a.def, n, opts.Seed)
	if err != nil {
		return spec, opts, err
	}
	spec, err = a.build(c, s, &opts)
	if err != nil {
		return spec, opts, err
	}
	spec.Name = "election " + a.name
	spec.Nodes = n
	if spec.Names == nil {
		spec.Names = idNames(s.ids)
	}
	if spec.Topology == "" {
		spec.Topology = trace.TopoRing
	}
	return spec, opts, nil
}

// starts gives CmdStart at tick 0 to every starter.
func starts(s setup) []node.Action {
	acts := make([]node.Action, len(s.starters))
	for k, i := range s.starters {
		acts[k] = node.Action{At: 0, Node: i, Cmd: node.CmdStart}
	}
	return acts
}

// verdicts are the election properties: termination, uniqueness, agreement,
// and correctness (the leader is want, by rule).
func verdicts(ids []int, want int, rule string) []check.Property {
	return []check.Property{check.Termination{}, NewUniqueness(ids), NewAgreement(len(ids), ids), NewCorrectness(ids, want, rule)}
}

// idNames names nodes by their ids, as the chapter does: N5 is the node
// with id 5.
func idNames(ids []int) func(int) string {
	return func(i int) string { return "N" + strconv.Itoa(ids[i-1]) }
}

// edgeList lists a topology's undirected edges (none past maxEdges: a
// header names the edges of a graph a picture can show).
func edgeList(t node.Topology) [][2]int {
	const maxEdges = 100_000
	var es [][2]int
	for i := 1; i <= t.N; i++ {
		for _, j := range t.Neighbors(i) {
			if j > i {
				if len(es) == maxEdges {
					return nil
				}
				es = append(es, [2]int{i, j})
			}
		}
	}
	return es
}

func minID(ids []int) int { return slices.Min(ids) }
func maxID(ids []int) int { return slices.Max(ids) }
