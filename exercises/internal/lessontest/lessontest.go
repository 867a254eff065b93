// Package lessontest runs one lesson command in-process, the way main does,
// so each lesson's tests can check its output and exit code. Tests only.
package lessontest

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
)

// Run executes `x <cmd.Name> args...` on a tiny app whose stdout and stderr
// are one buffer, and returns that output and the command's error (map it
// with cliutil.Code).
func Run(t testing.TB, cmd *cli.Command, args ...string) (string, error) {
	t.Helper()
	return RunContext(t, context.Background(), cmd, args...)
}

// RunContext is Run under ctx: cancelling ctx is Ctrl-C.
func RunContext(t testing.TB, ctx context.Context, cmd *cli.Command, args ...string) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	cliutil.Prepare([]*cli.Command{cmd})
	app := &cli.App{
		Name:           "x",
		Commands:       []*cli.Command{cmd},
		Writer:         &buf,
		ErrWriter:      &buf,
		ExitErrHandler: func(*cli.Context, error) {},
	}
	err := app.RunContext(ctx, append([]string{"x", cmd.Name}, args...))
	return buf.String(), err
}

// CheckCommon checks what every lesson promises: --explain prints text and
// exits 0, a positional argument is a usage error (exit 2), and each of
// badArgs is a usage error too.
func CheckCommon(t *testing.T, cmd func() *cli.Command, badArgs ...[]string) {
	t.Helper()
	out, err := Run(t, cmd(), "--explain")
	if err != nil || len(out) < 100 {
		t.Errorf("--explain: err %v, output %q", err, out)
	}
	cases := append([][]string{{"stray"}}, badArgs...)
	for _, args := range cases {
		out, err := Run(t, cmd(), args...)
		if got := cliutil.Code(err); got != cliutil.ExitUsage {
			t.Errorf("%v: exit %d, want %d (err %v)", args, got, cliutil.ExitUsage, err)
			continue
		}
		if out != "" {
			t.Errorf("%v: printed %q before rejecting the input", args, out)
		}
	}
}

// Expect runs the command with args, requires exit 0 and that the output
// contains every one of wants, and returns the output.
func Expect(t testing.TB, cmd *cli.Command, args []string, wants ...string) string {
	t.Helper()
	out, err := Run(t, cmd, args...)
	if err != nil {
		t.Fatalf("%v: exit %d (%v), want 0; output:\n%s", args, cliutil.Code(err), err, out)
	}
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%v: output lacks %q:\n%s", args, w, out)
		}
	}
	return out
}
