package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine"
	"ringlab/engine/cliutil"
)

// ParamFlags are the flags of a's parameters, one each, typed as the
// parameter's Default, in a's order.
func ParamFlags(a engine.Algorithm) []ucli.Flag {
	fs := make([]ucli.Flag, 0, len(a.Params))
	for _, p := range a.Params {
		fs = append(fs, paramFlag(p))
	}
	return fs
}

func paramFlag(p engine.Param) ucli.Flag {
	switch d := p.Default.(type) {
	case int:
		return &ucli.IntFlag{Name: p.Name, Usage: p.Usage, Value: d, DefaultText: p.DefaultText}
	case int64:
		return &ucli.Int64Flag{Name: p.Name, Usage: p.Usage, Value: d, DefaultText: p.DefaultText}
	case uint64:
		return &ucli.Uint64Flag{Name: p.Name, Usage: p.Usage, Value: d, DefaultText: p.DefaultText}
	case bool:
		return &ucli.BoolFlag{Name: p.Name, Usage: p.Usage, Value: d, DefaultText: p.DefaultText}
	case string:
		return &ucli.StringFlag{Name: p.Name, Usage: p.Usage, Value: d, DefaultText: p.DefaultText}
	}
	panic(fmt.Sprintf("cli: parameter %q has a default of type %T (want int, int64, uint64, bool or string)", p.Name, p.Default))
}

// ReadParams reads a's parameters from the flags of c. A value the user
// gave that its parameter's Check refuses is a usage error naming the
// flag.
func ReadParams(c *ucli.Context, a engine.Algorithm) (engine.Params, error) {
	ps := a.Defaults()
	for _, p := range a.Params {
		if !c.IsSet(p.Name) {
			continue
		}
		var v any
		switch p.Default.(type) {
		case int:
			v = c.Int(p.Name)
		case int64:
			v = c.Int64(p.Name)
		case uint64:
			v = c.Uint64(p.Name)
		case bool:
			v = c.Bool(p.Name)
		case string:
			v = c.String(p.Name)
		}
		if p.Check != nil {
			if err := p.Check(v); err != nil {
				return ps, cliutil.Usagef("--%s: %v", p.Name, err)
			}
		}
		if err := ps.Give(p.Name, v); err != nil {
			return ps, err
		}
	}
	return ps, nil
}

// Build reads a's parameters from c and builds the System for a run in
// env; an error of Build is the user's, a usage error.
func Build(c *ucli.Context, a engine.Algorithm, env engine.Env) (engine.System, error) {
	ps, err := ReadParams(c, a)
	if err != nil {
		return engine.System{}, err
	}
	return build1(a, ps, env)
}

// build1 builds a's System from ps; an error of Build is a usage error.
func build1(a engine.Algorithm, ps engine.Params, env engine.Env) (engine.System, error) {
	sys, err := a.Build(ps, env)
	if err != nil && cliutil.Code(err) != cliutil.ExitUsage {
		err = cliutil.Usagef("%v", err)
	}
	return sys, err
}
