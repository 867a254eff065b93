package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	rcli "ringlab/engine/cli"
	"ringlab/engine/cliutil"
	"ringlab/internal/racebuild"
)

// docCommand is one ringlab command line found in a Markdown file.
type docCommand struct {
	file  string
	line  int
	args  []string
	usage bool // documented as refused: "# exit 2"
}

var (
	fence = regexp.MustCompile("^\\s*```")
	// what follows a command in the docs and is not part of it: a pipe, a
	// redirection, a second command, or a note after a wide gap
	tail = regexp.MustCompile(`;|\s(\||>|2>|&&)|\s{3,}\(`)
)

// docCommands lists every line in a fenced code block of every Markdown
// file of the repository that runs ringlab ("ringlab ...", "$ ringlab ...",
// "go run . ..."), less what follows the command itself. Usage synopses
// (with [optional] parts or a|b choices) are not commands.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	var cmds []docCommand
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		in := false
		for i, line := range strings.Split(string(b), "\n") {
			if fence.MatchString(line) {
				in = !in
				continue
			}
			if !in {
				continue
			}
			l := strings.TrimPrefix(strings.TrimSpace(line), "$ ")
			var rest string
			switch {
			case strings.HasPrefix(l, "ringlab "):
				rest = strings.TrimPrefix(l, "ringlab ")
			case strings.HasPrefix(l, "go run . "):
				rest = strings.TrimPrefix(l, "go run . ")
			default:
				continue
			}
			if loc := tail.FindStringIndex(rest); loc != nil {
				rest = rest[:loc[0]]
			}
			usage := false
			if i := strings.Index(rest, " #"); i >= 0 {
				usage = strings.Contains(rest[i:], "exit 2")
				rest = rest[:i]
			}
			if strings.ContainsAny(rest, "[]|") || strings.Contains(rest, "...") {
				continue // a synopsis, not a command
			}
			args, err := rcli.SplitCommand(rest)
			if err != nil {
				t.Errorf("%s:%d: %v", path, i+1, err)
				continue
			}
			cmds = append(cmds, docCommand{path, i + 1, append([]string{"ringlab"}, args...), usage})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

// Every ringlab command in the docs parses: its command exists and every
// flag and value is accepted (or, where the docs say "# exit 2", is
// refused). Runs on the engine are built but not run
// (rcli.DryRun), explore tries no schedule, and the other commands
// get a cancelled context, so none runs long.
func TestDocCommandsParse(t *testing.T) {
	cmds := docCommands(t)
	if len(cmds) < 20 {
		t.Fatalf("found only %d commands in the docs; is the extraction broken?", len(cmds))
	}
	dir := t.TempDir()
	_, lines, _ := logOf(t, []string{"election", "ring", "--seed", "1"})
	logFile := writeLog(t, "run.ndjson", lines) // for the commands that read a log
	for _, c := range cmds {
		args := append([]string(nil), c.args...)
		for i := 1; i < len(args); i++ {
			switch args[i-1] {
			case "--from":
				args[i] = logFile
			case "--events", "--out":
				args[i] = filepath.Join(dir, "out")
			case "--points": // a grading's points file: the worked assignment's
				args[i] = filepath.Join("examples", "assignment", "points")
			}
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		var out, errs bytes.Buffer
		app := rcli.DryRun(newApp(&out, &errs, areas()...))
		if racebuild.Enabled && args[1] == "exercises" {
			flagsOnly(app.Commands)
		}
		err := app.RunContext(ctx, args)
		switch {
		case c.usage && cliutil.Code(err) != cliutil.ExitUsage:
			t.Errorf("%s:%d: %q is documented as refused (exit 2), but parses", c.file, c.line, strings.Join(c.args, " "))
		case !c.usage && cliutil.Code(err) == cliutil.ExitUsage:
			t.Errorf("%s:%d: %q does not parse: %v", c.file, c.line, strings.Join(c.args, " "), err)
		}
	}
	t.Logf("%d commands", len(cmds))
}

// flagsOnly makes every command in the tree check its flags and stop: the
// exercises include intentionally racy code, which must not run inside a
// -race test binary (it would fail the test; see exercises/race_test.go).
// Their flags and values are still parsed; only their own checks of the
// values are skipped under -race.
func flagsOnly(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.Action != nil {
			c.Action = cliutil.NoArgs
		}
		flagsOnly(c.Subcommands)
	}
}
