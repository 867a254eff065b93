// Package mutex holds the `ringlab mutex` command tree: one subcommand per
// mutual-exclusion algorithm of the course chapter (central, token-ring, quorum,
// ricart-agrawala, lamport, maekawa), each run on the engine (internal/runner)
// under a workload of requests with the chapter's checkers — mutual
// exclusion, no deadlock, no starvation, the order of grants — plus the
// chapter's failure scenarios (`scenario`), the figures it talks about
// (`compare`, `quorum-probability`) and `explore` (many seeded schedules,
// shrunk to the shortest violating one). The algorithms themselves are the
// pure Step machines in the subpackages.
package mutex

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"ringlab/internal/check"
	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/run"
	"ringlab/internal/runner"
	"ringlab/mutex/internal/mutexcheck"
)

// Command returns the `mutex` command tree.
func Command() *cli.Command {
	var subs, explore []*cli.Command
	for _, a := range algos() {
		subs = append(subs, a.command(false))
		explore = append(explore, a.command(true))
	}
	subs = append(subs, scenarioCommand(), compareCommand(), probabilityCommand(), checkCommand(), &cli.Command{
		Name:  "explore",
		Usage: "run an algorithm under many seeded schedules and show the shortest violating one",
		UsageText: "ringlab mutex explore ALGORITHM --schedules N [flags of the algorithm]\n\n" +
			"Example (Lamport's algorithm without FIFO links):\n" +
			"   ringlab mutex explore lamport --nodes 3 --requests 2 --policy random --schedules 10000",
		Subcommands: explore,
	})
	return &cli.Command{
		Name:  "mutex",
		Usage: "mutual exclusion: six algorithms, the chapter's failure scenarios, compare, explore",
		UsageText: "ringlab mutex ALGORITHM [flags]\n\n" +
			"Example (Ricart-Agrawala with N32, N12 and N80):\n   ringlab mutex scenario ra-seed001",
		Subcommands: subs,
	}
}

func (a algo) command(explore bool) *cli.Command {
	flags := append(workloadFlags(a.defNodes, a.nodesUsage), a.flags()...)
	flags = append(flags, runner.Flags()...)
	cmd := &cli.Command{
		Name: a.name, Usage: a.usage, Description: a.description,
		UsageText: "ringlab mutex " + a.name + " [flags]\n\nExample:\n   " + a.example,
		Flags:     flags,
		Action:    a.action(explore),
	}
	if explore {
		cmd.Flags = append(runner.HideRunOnly(flags), runner.ExploreFlags()...)
		cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: "property",
			Usage: "look for violations of this property only: mutual-exclusion, one-token, grant-order, no-deadlock, no-starvation (default: any)"})
		cmd.Usage = "explore " + a.name + " under many seeded schedules (simulator)"
		cmd.UsageText = "ringlab mutex explore " + a.name + " --schedules N [flags]\n\nExample:\n   " +
			"ringlab mutex explore " + a.name + " --nodes 3 --requests 2 --latency 1-10 --schedules 10000"
	}
	return cmd
}

func workloadFlags(nodes int, nodesUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "nodes", Value: nodes, Usage: nodesUsage},
		&cli.IntFlag{Name: "requests", Value: 3, Usage: fmt.Sprintf("critical-section entries each node asks for (1..%d)", maxRequests)},
		&cli.Int64Flag{Name: "cs-time", Value: 2, Usage: "ticks a node stays in the critical section (>= 0)"},
		&cli.Int64Flag{Name: "think-time", Value: 5, Usage: "ticks between leaving and asking again; first requests at ticks drawn once from [0, think-time] (>= 0)"},
	}
}

// Bounds of the workload flags.
const (
	maxNodes    = 1024
	maxRequests = 100_000
)

func (a algo) action(exploring bool) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		spec, err := a.spec(c)
		if err != nil {
			return err
		}
		opts, err := runner.Parse(c, spec.Nodes)
		if err != nil {
			return err
		}
		if exploring {
			return progress(runner.Explore(c.Context, c, func() (engine.System, error) { return a.spec(c) }, opts, c.App.Writer, c.App.ErrWriter))
		}
		_, err = runner.Execute(c.Context, spec, opts, runner.Replay(c, opts.Seed), c.App.Writer, c.App.ErrWriter)
		return progress(err)
	}
}

// spec reads the workload and algorithm flags into the run they describe.
func (a algo) spec(c *cli.Context) (engine.System, error) {
	p, err := a.params(c, 1)
	if err != nil {
		return engine.System{}, err
	}
	pl, err := p.build()
	if err != nil {
		return engine.System{}, cliutil.Usagef("%v", err)
	}
	w := newWorkload(pl, p.requests, c.Int64("cs-time"), c.Int64("think-time"))
	spec, _ := newSpec("mutex "+a.name, pl, w)
	return spec, nil
}

// params reads and checks the workload and algorithm flags; --requests
// must be at least minRequests (a check takes 0: no end).
func (a algo) params(c *cli.Context, minRequests int) (params, error) {
	p := params{algo: a.name, nodes: c.Int("nodes"), requests: c.Int("requests")}
	switch {
	case p.nodes < a.minNodes || p.nodes > maxNodes:
		return p, cliutil.Usagef("--nodes must be between %d and %d for %s, got %d", a.minNodes, maxNodes, a.name, p.nodes)
	case p.requests < minRequests || p.requests > maxRequests:
		return p, cliutil.Usagef("--requests must be between %d and %d, got %d", minRequests, maxRequests, p.requests)
	}
	for _, f := range []string{"cs-time", "think-time"} {
		if v := c.Int64(f); v < 0 || v > maxTicks {
			return p, cliutil.Usagef("--%s must be between 0 and %d ticks, got %d", f, maxTicks, v)
		}
	}
	if a.read != nil {
		if err := a.read(c, &p); err != nil {
			return p, err
		}
	}
	return p, nil
}

const maxTicks = 1_000_000_000

// ticks reads a flag of ticks where 0 means "off".
func ticks(c *cli.Context, name string) (int64, error) {
	v := c.Int64(name)
	if v < 0 || v > maxTicks {
		return 0, cliutil.Usagef("--%s must be between 0 (off) and %d ticks, got %d", name, maxTicks, v)
	}
	return v, nil
}

// progress turns a failed liveness verdict (no deadlock, no starvation)
// into "no progress" (exit 4): the run stopped short of its work, which is
// not a safety violation (exit 3). The engine names the first failed
// verdict, and the checkers list safety first, so a run with a safety
// violation keeps exit 3.
func progress(err error) error {
	var v *run.Violation
	if !errors.As(err, &v) || !mutexcheck.Liveness(check.ID(v.Property)) {
		return err
	}
	l := *v
	l.Liveness = true
	return &l
}
