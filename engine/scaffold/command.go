package scaffold

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// Command is `ringlab new KIND NAME`: it writes a new module, the skeleton
// of an algorithm, into directory NAME (or --dir). A directory that is
// not empty, an unknown kind, a NAME that gives no package name, a bad
// --module or a --ringlab that is not ringlab's checkout is refused,
// exit 2, and nothing is written.
func Command() *ucli.Command {
	var subs []*ucli.Command
	for _, kind := range Kinds {
		subs = append(subs, kindCommand(kind))
	}
	return &ucli.Command{
		Name:        "new",
		Usage:       "write a new module: an algorithm's package with Step stubs, its tests, and a main with ringlab's commands",
		UsageText:   "ringlab new mutex|election NAME [--dir DIR] [--module PATH] [--ringlab DIR]\n\nExample:\n   ringlab new mutex my-lock\n   cd my-lock && go test ./...",
		Subcommands: subs,
	}
}

// what says what each kind's skeleton is.
var what = map[string]string{"mutex": "a mutual-exclusion algorithm on a complete graph", "election": "a leader election on a ring"}

func kindCommand(kind string) *ucli.Command {
	return &ucli.Command{
		Name:      kind,
		Usage:     "write a new module holding the skeleton of " + what[kind],
		UsageText: "ringlab new " + kind + " NAME [--dir DIR] [--module PATH] [--ringlab DIR]\n\nExample:\n   ringlab new " + kind + " my-" + kind + "\n   cd my-" + kind + " && go test ./...",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "dir", Usage: "write the module into `DIR`, which must be empty or not exist (default: NAME)"},
			&ucli.StringFlag{Name: "module", Usage: "the module's `PATH` (default: NAME)"},
			&ucli.StringFlag{Name: "ringlab", Usage: "the ringlab checkout, `DIR`, that go.mod replaces ringlab with (default: the one this program was built from)"},
		},
		Action: func(c *ucli.Context) error { return newModule(c, kind) },
	}
}

// newModule is the action of `new KIND`.
func newModule(c *ucli.Context, kind string) error {
	opt, args, err := options(c)
	switch {
	case err != nil:
		return cliutil.Usagef("new %s: %v", kind, err)
	case opt["help"] == "true":
		ucli.HelpPrinter(c.App.Writer, ucli.CommandHelpTemplate, c.Command) // as --help before NAME does
		return nil
	case len(args) == 0:
		return cliutil.Usagef("new %s: give the algorithm's NAME, e.g. ringlab new %s my-%s", kind, kind, kind)
	case len(args) > 1:
		return cliutil.Usagef("new %s: one NAME, got %d arguments (%s)", kind, len(args), strings.Join(args, " "))
	}
	name := args[0]
	pkg, err := PackageName(name)
	if err != nil {
		return cliutil.Usagef("NAME: %v", err)
	}
	if opt["module"] != "" {
		if err := CheckModulePath(opt["module"]); err != nil {
			return cliutil.Usagef("--module: %v", err)
		}
	}
	r, err := FindRinglab(opt["ringlab"])
	if err != nil {
		return cliutil.Usagef("--ringlab: %v", err)
	}
	files, err := Skeleton{Kind: kind, Name: name, Module: opt["module"], Ringlab: r}.Files()
	if err != nil {
		return err
	}
	dir := filepath.Clean(opt["dir"])
	if opt["dir"] == "" {
		dir = name
	}
	if err := c.Context.Err(); err != nil { // interrupted before a file was written
		return err
	}
	if err := Write(dir, files); err != nil {
		return cliutil.Usagef("--dir: %v", err)
	}
	module := opt["module"]
	if module == "" {
		module = name
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: module %s (go.mod, go.sum, main.go), package %s (%s/%s.go, %s/%s_test.go), %s\nnext: fill in the TODOs of Step in %s/%s.go, then run: %s\n",
		dir, module, pkg, pkg, pkg, pkg, pkg, what[kind], pkg, pkg, testCommand(dir))
	return nil
}

// testCommand is the shell command that runs the tests of the module
// written into dir, from the directory `new` ran in.
func testCommand(dir string) string {
	if dir == "." {
		return "go test ./..."
	}
	return "cd " + cliutil.Quote(dir) + " && go test ./..."
}

// options returns the values of the command's flags, by name, wherever
// they stand, and its arguments: urfave/cli reads flags up to the first
// argument only, so options reads the flags that follow NAME itself, with
// the same definitions. A flag given twice takes its last value.
func options(c *ucli.Context) (map[string]string, []string, error) {
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	opt := map[string]string{}
	for _, f := range c.Command.Flags {
		if err := f.Apply(set); err != nil {
			return nil, nil, err
		}
		name := f.Names()[0]
		if c.IsSet(name) {
			opt[name] = fmt.Sprint(c.Value(name))
		}
	}
	var args []string
	for rest := c.Args().Slice(); len(rest) > 0; {
		args = append(args, rest[0])
		if err := set.Parse(rest[1:]); err != nil {
			return nil, nil, err
		}
		if read := len(rest) - 1 - len(set.Args()); read > 0 && rest[read] == "--" {
			args = append(args, set.Args()...) // after "--", only arguments
			break
		}
		rest = set.Args()
	}
	set.Visit(func(f *flag.Flag) { opt[f.Name] = f.Value.String() })
	return opt, args, nil
}
