package mutex

import (
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/check"
	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/engine/statespace"
)

// checkConfig is the search `ringlab mutex check ALGO ARGS...` makes of
// args (the algorithm's name first, then its flags), without the check's
// own flags (policy, faults, reduction: the caller sets them).
func checkConfig(tb testing.TB, args ...string) statespace.Config {
	tb.Helper()
	alg, ok := engine.Find(Algorithms(), args[0])
	if !ok {
		tb.Fatalf("no algorithm %q", args[0])
	}
	alg = alg.ForCheck()
	cmd := &cli.Command{Name: alg.Name, Flags: rcli.ParamFlags(alg)}
	ps, err := cliutil.Build(cmd, args[1:], func(c *cli.Context) (engine.Params, error) { return rcli.ReadParams(c, alg) })
	if err != nil {
		tb.Fatal(err)
	}
	env := engine.Env{Runtime: "sim", MaxDelay: 1}
	sys, err := alg.Build(ps, env)
	if err != nil {
		tb.Fatal(err)
	}
	fresh := func() []check.Property { again, _ := alg.Build(ps, env); return again.Properties }
	return statespace.Config{System: sys,
		Checks: fresh}
}
