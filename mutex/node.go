package mutex

import (
	"slices"

	"github.com/urfave/cli/v2"

	"ringlab/internal/cliutil"
	"ringlab/internal/runner"
)

// Algorithms lists the mutual-exclusion algorithms by their subcommand
// names.
func Algorithms() []string {
	var names []string
	for _, a := range algos() {
		names = append(names, a.name)
	}
	return names
}

// NodeSpec builds the run, workload included, that algorithm name's
// subcommand would build from args (its own flags, e.g. --nodes 3
// --requests 2), for a runtime that runs the nodes in several processes
// (`ringlab node`). Errors are usage errors.
func NodeSpec(name string, args []string) (runner.Spec, error) {
	i := slices.IndexFunc(algos(), func(a algo) bool { return a.name == name })
	if i < 0 {
		return runner.Spec{}, cliutil.Usagef("--algo: unknown mutex algorithm %q (want one of %v)", name, Algorithms())
	}
	a := algos()[i]
	var spec runner.Spec
	cmd := a.command(false)
	cmd.Action = func(c *cli.Context) error {
		if err := cliutil.NoArgs(c); err != nil {
			return err
		}
		p, err := a.params(c, 1)
		if err != nil {
			return err
		}
		pl, err := p.build()
		if err != nil {
			return cliutil.Usagef("%v", err)
		}
		w := newWorkload(pl, p.requests, c.Int64("cs-time"), c.Int64("think-time"))
		spec, _ = newSpec("mutex "+a.name, pl, w)
		return nil
	}
	return spec, cliutil.RunAlone(cmd, args)
}
