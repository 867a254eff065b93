package election

import (
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/engine"
	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/trace"
)

// names lists the election algorithms by their subcommand names.
func names() []string { return Area().Names() }

// NodeSpec builds the run of election algorithm name that its subcommand
// would build from args (its own flags, e.g. --ids 5,3,7,1,4 --lang pt),
// for a runtime that runs the nodes in several processes (`ringlab node`).
// Errors are usage errors.
func NodeSpec(name string, args []string) (engine.System, error) {
	alg, ok := engine.Find(Algorithms(), name)
	if !ok {
		return engine.System{}, cliutil.Usagef("--algo: unknown election algorithm %q (want one of %v)", name, names())
	}
	cmd := &cli.Command{Name: alg.Name, Flags: append(rcli.ParamFlags(alg), rcli.Flags()...)}
	for _, arg := range args {
		if f, ok := strings.CutPrefix(arg, "--"); ok && !slices.ContainsFunc(cmd.Flags, func(fl cli.Flag) bool { return fl.Names()[0] == f }) {
			return engine.System{}, cliutil.Usagef("--%s is not a flag of %s (see 'ringlab election %s --help')", f, name, name)
		}
	}
	return cliutil.Build(cmd, args, func(c *cli.Context) (engine.System, error) {
		// one process's share of a run the node processes agree on: no
		// drawn seed, the simulator's default latency for bully's timeouts
		env := engine.Env{Seed: c.Uint64("seed"), Runtime: c.String("runtime"), MaxDelay: 1}
		return rcli.Build(c, alg, env)
	})
}

// nodeRuns is how `ringlab node` and `ringlab amqp` run the elections:
// the initiator's node (node 1 unless --initiator is given to another)
// starts the election.
func nodeRuns() *rcli.NodeRuns {
	return &rcli.NodeRuns{
		Flags: []string{"ids", "nodes", "lang"},
		Spec: func(name string, args []string, index int, initiator bool) (engine.System, error) {
			if initiator {
				args = append(args, "--initiators", strconv.Itoa(index))
			}
			return NodeSpec(name, args)
		},
	}
}

// Remote lets the ring election's text, in a node process, learn the
// leader from another process's events without printing them.
func (r *ringText) Remote(e *trace.Event) {
	if e.Kind == trace.KindLeader && e.Node >= 1 && e.Node <= len(r.ids) && e.LeaderID() == r.ids[e.Node-1] {
		r.leader = e.Node
	}
}
