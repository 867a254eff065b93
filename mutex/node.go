package mutex

import (
	"slices"

	"ringlab/internal/cliutil"
	"ringlab/internal/engine"
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
func NodeSpec(name string, args []string) (engine.System, error) {
	i := slices.IndexFunc(algos(), func(a algo) bool { return a.name == name })
	if i < 0 {
		return engine.System{}, cliutil.Usagef("--algo: unknown mutex algorithm %q (want one of %v)", name, Algorithms())
	}
	a := algos()[i]
	return cliutil.Build(a.command(false), args, a.spec)
}

// NodeArea is the mutual-exclusion algorithms as `ringlab node` and
// `ringlab amqp` take them (mutex/NAME): every node runs the workload; the
// initiator's process only watches.
func NodeArea() runner.Area {
	return runner.Area{
		Name: "mutex", Algorithms: Algorithms(), Flags: []string{"nodes", "requests"},
		Spec: func(name string, args []string, _ int, _ bool) (engine.System, error) { return NodeSpec(name, args) },
		Exit: progress,
	}
}
