package election

import (
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
	"ringlab/internal/runner"
	"ringlab/internal/trace"
)

// Algorithms lists the election algorithms by their subcommand names.
func Algorithms() []string {
	var names []string
	for _, a := range algos() {
		names = append(names, a.name)
	}
	return names
}

// NodeSpec builds the run of election algorithm name that its subcommand
// would build from args (its own flags, e.g. --ids 5,3,7,1,4 --lang pt),
// for a runtime that runs the nodes in several processes (`ringlab node`).
// Errors are usage errors.
func NodeSpec(name string, args []string) (engine.System, error) {
	i := slices.IndexFunc(algos(), func(a algo) bool { return a.name == name })
	if i < 0 {
		return engine.System{}, cliutil.Usagef("--algo: unknown election algorithm %q (want one of %v)", name, Algorithms())
	}
	a := algos()[i]
	cmd := a.command(false)
	for _, arg := range args {
		if f, ok := strings.CutPrefix(arg, "--"); ok && !slices.ContainsFunc(cmd.Flags, func(fl cli.Flag) bool { return fl.Names()[0] == f }) {
			return engine.System{}, cliutil.Usagef("--%s is not a flag of %s (see 'ringlab election %s --help')", f, name, name)
		}
	}
	return cliutil.Build(cmd, args, func(c *cli.Context) (engine.System, error) {
		spec, _, err := a.spec(c)
		return spec, err
	})
}

// NodeArea is the elections as `ringlab node` and `ringlab amqp` take
// them: the initiator's node (node 1 unless --initiator is given to another)
// starts the election.
func NodeArea() runner.Area {
	return runner.Area{
		Name: "election", Algorithms: Algorithms(), Flags: []string{"ids", "nodes", "lang"},
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
