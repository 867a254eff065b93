package mutex

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/internal/node"
	"ringlab/internal/runner"
	"ringlab/internal/statespace"
	"ringlab/mutex/lamport"
	"ringlab/mutex/ricart"
)

// checkCommand is `ringlab mutex check ALGO`: an exhaustive search of every
// state of a small system (not to be confused with re-checking a saved log).
func checkCommand() *cli.Command {
	var subs []*cli.Command
	for _, a := range algos() {
		flags := []cli.Flag{
			&cli.IntFlag{Name: "nodes", Value: min(a.defNodes, 3), Usage: a.nodesUsage + "; keep it small: the space grows exponentially"},
			&cli.IntFlag{Name: "requests", Value: 1, Usage: "critical-section entries each node asks for (1..8; 0: no end, a node asks again after every exit; needs --max-clock or --max-depth)"},
		}
		if a.name == algoLamport || a.name == algoRicart {
			flags = append(flags, &cli.IntFlag{Name: "max-clock", Usage: "a state constraint, as TLC's: states where a node's Lamport clock passes this are counted but not expanded (0: none)"})
		}
		flags = append(append(flags, a.flags()...), runner.CheckFlags()...)
		subs = append(subs, &cli.Command{
			Name:  a.name,
			Usage: "explore every reachable state of " + a.name + " (exhaustive state-space search)",
			Description: "Breadth-first search over every interleaving the simulator could produce: which message\n" +
				"is delivered next, which pending timer fires (any moment with --timers any), which\n" +
				"request or release comes next, and where --crashes/--restarts/--drops strike. Mutual\n" +
				"exclusion is checked at every step; no deadlock, no starvation and the grant order at\n" +
				"every terminal state. A violation is reported with a shortest path and its --path replay.",
			UsageText: "ringlab mutex check " + a.name + " [flags]\n\nExample:\n   " + checkExample(a.name),
			Flags:     flags,
			Action:    a.checkAction,
		})
	}
	return &cli.Command{
		Name:  "check",
		Usage: "exhaustive state-space search: every interleaving of a small system, shortest counterexample",
		UsageText: "ringlab mutex check ALGORITHM [flags]\n\n" +
			"Example (Lamport's algorithm needs FIFO links):\n   ringlab mutex check lamport --nodes 2 --policy random",
		Subcommands: subs,
	}
}

func checkExample(name string) string {
	switch name {
	case algoCentral:
		return "ringlab mutex check central --nodes 3 --grant-timeout 10   (a slow holder: two in the CS)"
	case algoToken:
		return "ringlab mutex check token-ring --nodes 3 --regen-timeout 5   (a regenerated token: two in the CS)"
	case algoQuorum:
		return "ringlab mutex check quorum --coordinators 3 --nodes 2 --crashes 1 --restarts 1 --property mutual-exclusion   (amnesia)"
	case algoRicart:
		return "ringlab mutex check ricart-agrawala --nodes 3 --policy random"
	case algoLamport:
		return "ringlab mutex check lamport --nodes 3 --clock requests --requests 0 --max-clock 6   (TLC's model and clock bound, about 2 s)"
	}
	return "ringlab mutex check " + name + " --nodes 3"
}

func (a algo) checkAction(c *cli.Context) error {
	if err := cliutil.NoArgs(c); err != nil {
		return err
	}
	p, err := a.params(c, 0)
	if err != nil {
		return err
	}
	maxClock := c.Int("max-clock")
	switch {
	case p.requests > 8:
		return cliutil.Usagef("--requests must be between 0 and 8 for an exhaustive check, got %d", p.requests)
	case maxClock < 0:
		return cliutil.Usagef("--max-clock must not be negative, got %d", maxClock)
	case p.requests == 0 && maxClock == 0 && c.Int("max-depth") == 0:
		return cliutil.Usagef("--requests 0 (no end) needs --max-clock or --max-depth: the space is infinite")
	}
	pl, err := p.build()
	if err != nil {
		return cliutil.Usagef("%v", err)
	}
	if pl.nodes > statespace.MaxNodes {
		return cliutil.Usagef("an exhaustive check takes at most %d nodes, got %d", statespace.MaxNodes, pl.nodes)
	}
	w := checkWorkload(pl, p.requests)
	spec, _ := newSpec("mutex "+a.name, pl, w)
	return runner.Check(c.Context, c, spec, searchConfig(pl, p.requests, maxClock), c.App.Writer, c.App.ErrWriter)
}

// checkWorkload is the workload of an exhaustive check: each requester
// asks requests times (0: for ever), with no time in between (time is
// not modelled).
func checkWorkload(pl plan, requests int) workload {
	w := newWorkload(pl, max(requests, 1), 0, 0)
	w.forever = requests == 0
	return w
}

// searchConfig is the exhaustive search of plan pl: its nodes, each
// requester's first request, the run's own workload that answers with
// releases and requests (0: for ever) and the run's properties, and with
// maxClock > 0 the constraint that every node's Lamport clock stays at or
// below it.
func searchConfig(pl plan, requests, maxClock int) statespace.Config {
	w := checkWorkload(pl, requests)
	sc := statespace.Config{
		Nodes: pl.nodes, Factory: pl.factory, Script: w.actions(pl), Checks: pl.checkers,
		Workload: w.newReactor(pl.nodes),
	}
	if maxClock > 0 {
		sc.Within = func(_ int, nd node.Node) bool { return clockOf(nd) <= maxClock }
		sc.Bound = fmt.Sprintf("--max-clock %d", maxClock)
	}
	return sc
}

// clockOf is the Lamport clock of a Lamport or Ricart-Agrawala node.
func clockOf(nd node.Node) int {
	if w, ok := nd.(notDone); ok {
		nd = w.Node
	}
	switch x := nd.(type) {
	case *lamport.Node:
		return x.Status().Clock
	case *ricart.Node:
		return x.Status().Clock
	}
	panic(fmt.Sprintf("mutex: %T has no Lamport clock", nd))
}
