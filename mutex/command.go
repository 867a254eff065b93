// Package mutex holds the `ringlab mutex` command tree: one subcommand per
// mutual-exclusion algorithm of the course chapter (central, token-ring, quorum,
// ricart-agrawala, lamport, maekawa), each run on the engine (engine/cli, engine/run)
// under a workload of requests with the chapter's properties — mutual
// exclusion, no deadlock, no starvation, the order of grants — plus the
// chapter's failure scenarios (`scenario`), the figures it talks about
// (`compare`, `quorum-probability`), `explore` (many seeded schedules,
// shrunk to the shortest violating one) and `check` (every state of a
// small system). The algorithms themselves are the pure Step machines in
// the subpackages; Algorithms lists them.
package mutex

import (
	"github.com/urfave/cli/v2"

	rcli "ringlab/engine/cli"
)

// Area is the mutex area: its algorithms' run, explore and check commands
// made from Algorithms, and its own commands.
func Area() rcli.Area {
	return rcli.Area{
		Name:         "mutex",
		Usage:        "mutual exclusion: six algorithms, the chapter's failure scenarios, compare, explore",
		Example:      "Example (Ricart-Agrawala with N32, N12 and N80):\n   ringlab mutex scenario ra-seed001",
		Algorithms:   Algorithms(),
		Extra:        []*cli.Command{scenarioCommand(), compareCommand(), probabilityCommand()},
		RebuildExtra: rebuildScenario,
		ExploreExample: "Example (Lamport's algorithm without FIFO links):\n" +
			"   ringlab mutex explore lamport --nodes 3 --requests 2 --policy random --schedules 10000",
		ExploreArgs:  "--nodes 3 --requests 2 --latency 1-10 --schedules 10000",
		CheckExample: "Example (Lamport's algorithm needs FIFO links):\n   ringlab mutex check lamport --nodes 2 --policy random",
		Node:         nodeRuns(),
	}
}

// Command returns the `mutex` command tree.
func Command() *cli.Command { return Area().Command() }
