package mutex

import (
	"github.com/urfave/cli/v2"

	"ringlab/engine"
	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
)

// NodeSpec builds the run, workload included, that algorithm name's
// subcommand would build from args (its own flags, e.g. --nodes 3
// --requests 2), for a runtime that runs the nodes in several processes
// (`ringlab node`). Errors are usage errors.
func NodeSpec(name string, args []string) (engine.System, error) {
	alg, ok := engine.Find(Algorithms(), name)
	if !ok {
		return engine.System{}, cliutil.Usagef("--algo: unknown mutex algorithm %q (want one of %v)", name, Area().Names())
	}
	cmd := &cli.Command{Name: alg.Name, Flags: rcli.ParamFlags(alg)}
	return cliutil.Build(cmd, args, func(c *cli.Context) (engine.System, error) {
		return rcli.Build(c, alg, engine.Env{Runtime: "amqp", MaxDelay: 1})
	})
}

// nodeRuns is how `ringlab node` and `ringlab amqp` run the
// mutual-exclusion algorithms (mutex/NAME): every node runs the workload;
// the initiator's process only watches.
func nodeRuns() *rcli.NodeRuns {
	return &rcli.NodeRuns{
		Flags: []string{"nodes", "requests"},
		Spec:  func(name string, args []string, _ int, _ bool) (engine.System, error) { return NodeSpec(name, args) },
	}
}
