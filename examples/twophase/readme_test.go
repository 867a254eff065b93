package twophase_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"example.com/ringlab-examples/twophase"
	"ringlab/engine/cli"
)

var update = flag.Bool("update", false, "rewrite the output in ../README.md and ../twophase.mmd from the commands")

// session is a ```console block of the README: "$ twophase ARGS" lines,
// each followed by what the command writes (stdout, then stderr).
var session = regexp.MustCompile("(?s)```console\n(.*?)```")

// TestREADME runs every command of the README's console blocks in
// process and compares its output with the README's (a check's "time:"
// line, which the clock decides, excepted); -update rewrites them. It
// also keeps twophase.mmd, which twophase.svg is drawn from, the
// program's current picture of its run.
func TestREADME(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	mmdPath := filepath.Join(filepath.Dir(path), "twophase.mmd")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the logs the commands write (--events run.ndjson)
	n := 0
	out := session.ReplaceAllStringFunc(string(b), func(block string) string {
		var doc strings.Builder
		doc.WriteString("```console\n")
		for _, cmd := range commands(session.FindStringSubmatch(block)[1]) {
			n++
			got := run(t, cmd.line)
			if !*update && !sameOutput(cmd.output, got) {
				t.Errorf("README: $ %s\nwrites\n%s\nnot\n%s", cmd.line, got, cmd.output)
			}
			if !*update {
				got = cmd.output
			}
			doc.WriteString("$ " + cmd.line + "\n" + got)
		}
		return doc.String() + "```"
	})
	if n < 5 {
		t.Fatalf("only %d commands in the README's console blocks", n)
	}
	mmd := run(t, "twophase 2pc --crash 3@0 --seed 1 --format mermaid 2>/dev/null")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mmdPath, []byte(mmd), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if old, err := os.ReadFile(mmdPath); err != nil || string(old) != mmd {
		t.Errorf("twophase.mmd is not the program's picture of its run (go test -update, then draw twophase.svg again): %v", err)
	}
}

type command struct{ line, output string }

func commands(block string) []command {
	var cs []command
	for line := range strings.Lines(block) {
		if l, ok := strings.CutPrefix(line, "$ "); ok {
			cs = append(cs, command{line: strings.TrimSpace(l)})
		} else if len(cs) > 0 {
			cs[len(cs)-1].output += line
		}
	}
	return cs
}

// run runs one README command line ("twophase ARGS", with 2>/dev/null to
// show stdout only) and returns stdout followed by stderr.
func run(t *testing.T, line string) string {
	t.Helper()
	line, quiet := strings.CutSuffix(line, " 2>/dev/null")
	args, err := cli.SplitCommand(line)
	if err != nil || len(args) == 0 || args[0] != "twophase" {
		t.Fatalf("README: %q is not a twophase command", line)
	}
	var stdout, stderr bytes.Buffer
	cli.Run(context.Background(), args, &stdout, &stderr, twophase.Algorithm())
	if quiet {
		return stdout.String()
	}
	return stdout.String() + stderr.String()
}

// sameOutput compares two outputs line by line, any "time: " line
// matching any other.
func sameOutput(want, got string) bool {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(w) != len(g) {
		return false
	}
	for i := range w {
		if w[i] != g[i] && !(strings.HasPrefix(w[i], "time: ") && strings.HasPrefix(g[i], "time: ")) {
			return false
		}
	}
	return true
}
