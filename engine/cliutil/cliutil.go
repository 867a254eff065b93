// Package cliutil holds the few pieces every ringlab command shares: the
// exit-code contract, the usage-error shape, and a guard against stray
// positional arguments. It is the only place exit codes are defined; main.go
// maps errors to them through Code.
package cliutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"ringlab/engine/run"
)

// Exit codes, the contract of every command; Code maps an error to one.
const (
	ExitOK            = 0   // the command did its work; a run kept every property
	ExitInternal      = 1   // something went wrong that is not the user's input
	ExitUsage         = 2   // bad input: a flag, an argument, a file
	ExitViolation     = 3   // a run or a check found a property violated
	ExitNoTermination = 4   // a run did not end by itself within its budget
	ExitInterrupted   = 130 // interrupted (Ctrl-C): 128 + SIGINT
)

// ExitError carries an exit code with an error. Commands return it; only
// main turns it into a process exit status.
type ExitError struct {
	Code int   // the process exit status: one of the Exit constants
	Err  error // the error, whose text is the one line printed
}

// Error returns Err's text.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode is e's exit code.
func (e *ExitError) ExitCode() int { return e.Code }

// UsageError is bad input to one flag: exit code 2. Its message names the
// flag as the user wrote it; Flag lets a caller tell which flag it was
// without reading the message.
type UsageError struct {
	Flag string // the flag's name without dashes: "from", "property"
	Err  error  // the error, whose text names the flag
}

// FlagUsagef reports bad input to --flag: exit code 2. The message should
// name the flag ("--from %s: ...").
func FlagUsagef(flag, format string, args ...any) error {
	return &UsageError{Flag: flag, Err: fmt.Errorf(format, args...)}
}

// Error returns Err's text.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is 2.
func (e *UsageError) ExitCode() int { return ExitUsage }

// Usagef reports bad input: exit code 2.
func Usagef(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// Violationf reports that a checked property was violated: exit code 3.
func Violationf(format string, args ...any) error {
	return &ExitError{Code: ExitViolation, Err: fmt.Errorf(format, args...)}
}

// NoTerminationf reports a run that did not end within its budget: exit code 4.
func NoTerminationf(format string, args ...any) error {
	return &ExitError{Code: ExitNoTermination, Err: fmt.Errorf(format, args...)}
}

// Code maps an error returned by a command to the process exit code.
func Code(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee interface{ ExitCode() int }
	var v *run.Violation
	var nt *run.NoTermination
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case errors.As(err, &v) && v.Liveness: // the run stopped short of its work: no safety violation
		return ExitNoTermination
	case errors.As(err, &v):
		return ExitViolation
	case errors.As(err, &nt):
		return ExitNoTermination
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	return ExitInternal
}

// NoArgs rejects positional arguments. urfave/cli stops parsing flags at the
// first positional argument, so "ring foo --nodes 3" would silently ignore
// "--nodes 3"; this turns that into a usage error instead.
func NoArgs(c *cli.Context) error {
	if c.Args().Present() {
		return Usagef("unexpected argument %q: this command takes flags only, and flags must come before any argument", c.Args().First())
	}
	return nil
}

// Prepare walks a command tree and makes every flag-parsing failure a usage
// error (exit 2), and every command group reject an unknown subcommand.
func Prepare(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return &ExitError{Code: ExitUsage, Err: err}
		}
		if len(cmd.Subcommands) > 0 && cmd.Action == nil {
			cmd.Action = groupAction
		}
		Prepare(cmd.Subcommands)
	}
}

func groupAction(c *cli.Context) error {
	if c.Args().Present() {
		return Usagef("%s: unknown subcommand %q (see '%s --help')", c.Command.FullName(), c.Args().First(), c.Command.HelpName)
	}
	return cli.ShowSubcommandHelp(c)
}

// NotBuilt is the action of a command listed before it is written: it
// fails with exit code 1, naming the command.
func NotBuilt(name string) cli.ActionFunc {
	return func(c *cli.Context) error {
		return &ExitError{Code: ExitInternal, Err: fmt.Errorf("%s: not built yet", name)}
	}
}

// Build returns what read builds from cmd's flags parsed from args, without
// running cmd: it parses them in a silent app of its own, rejects
// positional arguments, and returns every error as a usage error. A node
// process builds the run its subcommand would build this way.
func Build[T any](cmd *cli.Command, args []string, read func(*cli.Context) (T, error)) (T, error) {
	var v T
	cmd.Action = func(c *cli.Context) error {
		if err := NoArgs(c); err != nil {
			return err
		}
		var err error
		v, err = read(c)
		return err
	}
	app := &cli.App{
		Name: "ringlab", Commands: []*cli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard,
		HideHelp: true, ExitErrHandler: func(*cli.Context, error) {},
	}
	err := app.Run(append([]string{"ringlab", cmd.Name}, args...))
	var ee *ExitError
	if err != nil && !errors.As(err, &ee) {
		return v, Usagef("%v", err)
	}
	return v, err
}

// Output is where a command writes its result: the file named by --out,
// created (call done when finished), or else the app's writer.
func Output(c *cli.Context) (w io.Writer, done func(), err error) {
	out := c.String("out")
	if out == "" {
		return c.App.Writer, func() {}, nil
	}
	f, err := os.Create(out)
	if err != nil {
		return nil, nil, Usagef("--out: %v", err)
	}
	return f, func() { f.Close() }, nil
}

// SameFile reports whether paths a and b name one file: the same path, or
// two names (a link, another spelling) of a file that exists. A command
// that reads one and writes the other refuses it rather than overwrite its
// input or interleave two outputs.
func SameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// Quote writes s as one shell word: as it is when it holds only characters
// no shell treats specially, else in single quotes.
func Quote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
