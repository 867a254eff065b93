package scaffold

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// Command is `ringlab new KIND NAME`: it writes the skeleton of a new
// algorithm into directory NAME (or --dir). An existing directory, an
// unknown kind or a name that is not a package name is refused, exit 2,
// and nothing is written.
func Command() *ucli.Command {
	var subs []*ucli.Command
	for _, kind := range Kinds {
		subs = append(subs, kindCommand(kind))
	}
	return &ucli.Command{
		Name:        "new",
		Usage:       "write the skeleton of a new algorithm: its package, with Step stubs, and its tests",
		UsageText:   "ringlab new mutex|election NAME [--dir DIR]\n\nExample:\n   ringlab new mutex mylock",
		Subcommands: subs,
	}
}

func kindCommand(kind string) *ucli.Command {
	what := map[string]string{"mutex": "a mutual-exclusion algorithm on a complete graph", "election": "a leader election on a ring"}[kind]
	return &ucli.Command{
		Name:      kind,
		Usage:     "write the skeleton of " + what,
		UsageText: "ringlab new " + kind + " NAME [--dir DIR]\n\nExample:\n   ringlab new " + kind + " my" + kind,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "dir", Usage: "write the package into `DIR`, which must not exist (default: NAME)"},
		},
		Action: func(c *ucli.Context) error {
			args := c.Args().Slice()
			switch {
			case len(args) == 0:
				return cliutil.Usagef("new %s: give the package's NAME, e.g. ringlab new %s my%s", kind, kind, kind)
			case len(args) > 1:
				return cliutil.Usagef("new %s: one NAME, got %d arguments (%s); flags go before NAME", kind, len(args), strings.Join(args, " "))
			}
			name := args[0]
			if err := CheckName(name); err != nil {
				return cliutil.Usagef("NAME: %v", err)
			}
			dir := c.String("dir")
			if dir == "" {
				dir = name
			}
			if err := c.Context.Err(); err != nil { // interrupted before a file was written
				return err
			}
			if err := Write(dir, kind, name); err != nil {
				return cliutil.Usagef("--dir: %v", err)
			}
			fmt.Fprintf(c.App.Writer, "wrote %s/%s.go and %s/%s_test.go: package %s, %s\nnext: fill in the TODOs of Step, then run: go test ./%s\n",
				dir, name, dir, name, name, what, strings.TrimPrefix(dir, "./"))
			return nil
		},
	}
}
