package cli

import (
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
	"ringlab/engine/statespace"
)

// symmetryFlag reads --symmetry into sc: the symmetry sys declares, for a
// search that keeps one state of every orbit. It is off by default: the
// declaration is the algorithm's promise (engine.Symmetry), the search
// then runs without the partial-order reduction and on one worker, and a
// check's figures stay those of the plain search unless asked. Its errors
// are usage errors naming the flag; with --path it is ignored (a replay
// takes the concrete path as given) and says so on stderr.
func symmetryFlag(c *ucli.Context, sys engine.System, sc statespace.Config, stderr io.Writer) (statespace.Config, error) {
	if !c.Bool("symmetry") {
		return sc, nil
	}
	switch {
	case sys.Symmetry == nil:
		return sc, cliutil.Usagef("--symmetry: %s declares no symmetry in this configuration", sys.Name)
	case sc.Liveness:
		return sc, cliutil.Usagef("--symmetry with --liveness: refused, symmetry can hide a liveness violation (a fair cycle of the reduced graph need not be one of the system)")
	case sc.Goal != nil:
		return sc, cliutil.Usagef("--symmetry with --goal: refused, a goal may name a particular node")
	case c.IsSet("from-path"):
		return sc, cliutil.Usagef("--symmetry with --from-path: refused, a staged search starts from one concrete state")
	case c.Bool("serve"):
		return sc, cliutil.Usagef("--symmetry with --serve: refused, the browser steps concrete states one by one")
	case c.IsSet("path"):
		fmt.Fprintln(stderr, "--symmetry: ignored with --path (a replay takes the concrete path as given)")
		return sc, nil
	}
	if err := sys.Symmetry.Validate(sc.Nodes); err != nil {
		return sc, fmt.Errorf("%s: %w", sys.Name, err)
	}
	sc.Symmetry, sc.POR = sys.Symmetry, false
	return sc, nil
}
