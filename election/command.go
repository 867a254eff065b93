// Package election holds the `ringlab election` command tree: one
// subcommand per leader-election algorithm of the course (ring, anonymous,
// idlist, chang-roberts, franklin, bully, yoyo), each run on the engine
// (engine/cli, engine/run) with the election checkers — termination, uniqueness,
// agreement, correctness — plus `compare` (measured messages against the
// theory) and `explore` (many seeded schedules, shrunk to the shortest
// violating one). The algorithms themselves are the pure Step machines in
// the subpackages.
package election

import (
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	rcli "ringlab/engine/cli"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// entry is one election algorithm: its subcommand, its own parameters
// beside the ones every election shares (ids, nodes, layout, initiators),
// and the System it builds for one parsed setup.
type entry struct {
	name, usage, description, example string
	exploreExample, checkExample      string
	def                               defaults
	params                            []engine.Param // the algorithm's own
	// count returns the number of nodes; nil means --ids/--nodes or the
	// default ids.
	count func(p engine.Params, d defaults) (int, error)
	// build makes the run of one setup; env carries the run's seed, the
	// simulator's longest delay and the user's scripted faults.
	build func(p engine.Params, env engine.Env, s setup) (engine.System, error)
	// compare, if set, is the theory `compare` measures it against.
	compare *comparison
}

// entries lists the election algorithms in the order of election/README.md:
// adding one is its package, its entry function and one line here.
func entries() []entry {
	return []entry{ringAlgo(), anonymousAlgo(), idlistAlgo(), changRobertsAlgo(), franklinAlgo(), bullyAlgo(), yoyoAlgo()}
}

// Algorithms are the election algorithms, as every command takes them.
func Algorithms() []engine.Algorithm {
	es := entries()
	algs := make([]engine.Algorithm, len(es))
	for k, e := range es {
		algs[k] = e.algorithm()
	}
	return algs
}

func (e entry) algorithm() engine.Algorithm {
	return engine.Algorithm{
		Name: e.name, Usage: e.usage, Description: e.description, Example: e.example,
		ExploreExample: e.exploreExample, CheckExample: e.checkExample,
		Params: append(commonParams(e.def), e.params...),
		Build:  e.system,
		Pin:    pinLayout,
	}
}

// Area is the `election` command tree's description: every algorithm's
// run, explore and check commands, and compare.
func Area() rcli.Area {
	return rcli.Area{
		Name:       "election",
		Usage:      "leader election: the ring-election specification, the chapter's six algorithms, compare and explore",
		Algorithms: Algorithms(),
		Extra:      []*cli.Command{compareCommand()},
		Example:    "Example (the ring-election specification's expected output):\n   ringlab election ring --lang pt",
		ExploreExample: "Example (finds the anonymous ring's two leaders):\n" +
			"   ringlab election explore anonymous --initiators all --schedules 100",
		CheckExample: "Example (every delivery order of the chapter's ring, every node starting):\n" +
			"   ringlab election check ring --initiators all",
		Properties: "uniqueness, agreement, correctness, termination",
		CheckDescription: "Breadth-first search over every interleaving the simulator could produce: which message\n" +
			"is delivered next, which pending timer fires, and where --crashes/--restarts/--drops\n" +
			"strike. Uniqueness is checked at every step; termination, agreement and correctness at\n" +
			"every terminal state. A violation is reported with a shortest path and its --path replay.",
		Node: nodeRuns(),
	}
}

// Command returns the `election` command tree.
func Command() *cli.Command { return Area().Command() }

// system builds e's run from its parameters: the setup every election
// shares, then e's own System.
func (e entry) system(p engine.Params, env engine.Env) (engine.System, error) {
	var n int
	var err error
	if e.count != nil {
		n, err = e.count(p, e.def)
	} else {
		n, err = nodeCount(p, e.def, max(len(e.def.ids), e.def.nodes, e.def.minNodes))
	}
	if err != nil {
		return engine.System{}, err
	}
	s, err := parseSetup(p, e.def, n, env.Seed)
	if err != nil {
		return engine.System{}, err
	}
	sys, err := e.build(p, env, s)
	if err != nil {
		return sys, err
	}
	sys.Name = "election " + e.name
	sys.Nodes = n
	if sys.Names == nil {
		sys.Names = idNames(s.ids)
	}
	if sys.Topology == "" {
		sys.Topology = trace.TopoRing
	}
	return sys, nil
}

// verdicts are the election properties: termination, uniqueness, agreement,
// and correctness (the leader is want, by rule).
func verdicts(ids []int, want int, rule string) []check.Property {
	return []check.Property{NewTermination(len(ids), ids), NewUniqueness(ids), NewAgreement(len(ids), ids), NewCorrectness(ids, want, rule)}
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
