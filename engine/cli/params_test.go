package cli

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
)

func testAlgorithm() engine.Algorithm {
	return engine.Algorithm{
		Name: "tiny",
		Params: []engine.Param{
			{Name: "nodes", Usage: "nodes", Default: 3, Check: func(v any) error {
				if n := v.(int); n < 1 || n > 9 {
					return errors.New("must be between 1 and 9")
				}
				return nil
			}},
			{Name: "timeout", Default: int64(0)},
			{Name: "layout-seed", Default: uint64(0)},
			{Name: "broadcast", Default: false},
			{Name: "clock", Default: "events"},
		},
		Build: func(p engine.Params, env engine.Env) (engine.System, error) {
			if p.Bool("broadcast") && p.Int("nodes") < 2 {
				return engine.System{}, errors.New("--broadcast needs two nodes")
			}
			return engine.System{Name: "tiny " + p.String("clock"), Nodes: p.Int("nodes")}, nil
		},
	}
}

// read runs a one-command app with a's flags on args and returns what
// Build made of them.
func read(t *testing.T, args ...string) (engine.System, engine.Params, error) {
	t.Helper()
	a := testAlgorithm()
	var sys engine.System
	var ps engine.Params
	app := &ucli.App{Name: "t", Writer: io.Discard, ErrWriter: io.Discard, Flags: ParamFlags(a),
		ExitErrHandler: func(*ucli.Context, error) {},
		Action: func(c *ucli.Context) (err error) {
			if ps, err = ReadParams(c, a); err != nil {
				return err
			}
			sys, err = Build(c, a, engine.Env{})
			return err
		}}
	err := app.RunContext(context.Background(), append([]string{"t"}, args...))
	return sys, ps, err
}

func TestParams(t *testing.T) {
	sys, ps, err := read(t)
	if err != nil || sys.Nodes != 3 || sys.Name != "tiny events" || ps.Given("nodes") {
		t.Fatalf("defaults: %+v given(nodes)=%v err=%v", sys, ps.Given("nodes"), err)
	}
	sys, ps, err = read(t, "--nodes", "5", "--timeout", "7", "--layout-seed", "9", "--broadcast", "--clock", "requests")
	if err != nil || sys.Nodes != 5 || sys.Name != "tiny requests" || ps.Int64("timeout") != 7 || ps.Uint64("layout-seed") != 9 ||
		!ps.Given("nodes") || ps.Given("nonexistent") {
		t.Fatalf("given: %+v err=%v", sys, err)
	}
}

func TestParamsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nodes", "10"}, "--nodes: must be between 1 and 9"},
		{[]string{"--nodes", "1", "--broadcast"}, "--broadcast needs two nodes"},
	} {
		_, _, err := read(t, tc.args...)
		if cliutil.Code(err) != cliutil.ExitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v (exit %d), want exit 2 with %q", tc.args, err, cliutil.Code(err), tc.want)
		}
	}
}
