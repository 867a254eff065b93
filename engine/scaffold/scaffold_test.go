package scaffold_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/scaffold"
)

// run runs `ringlab new ARGS` in the app and returns its exit code, stdout
// and error text.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out bytes.Buffer
	cmds := []*ucli.Command{scaffold.Command()}
	cliutil.Prepare(cmds)
	app := &ucli.App{Name: "ringlab", Commands: cmds, Writer: &out, ErrWriter: &out, ExitErrHandler: func(*ucli.Context, error) {}}
	err := app.Run(append([]string{"ringlab", "new"}, args...))
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return cliutil.Code(err), out.String(), msg
}

// TestNextIsRightForAnyDir: whatever --dir is (relative, nested, absolute,
// with a space, "."), and wherever the flags stand, the module lands there
// and the command the "next:" line gives, run where `new` ran, finds it.
func TestNextIsRightForAnyDir(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	for _, c := range []struct {
		args          []string
		dir, wantNext string
	}{
		{[]string{"mutex", "my-lock"}, "my-lock", "cd my-lock && go test ./..."},
		{[]string{"mutex", "my-lock", "--dir", "labs/week-1/lock"}, "labs/week-1/lock", "cd labs/week-1/lock && go test ./..."},
		{[]string{"election", "--dir", filepath.Join(root, "abs", "vote"), "vote"}, "abs/vote", "cd " + filepath.Join(root, "abs", "vote") + " && go test ./..."},
		{[]string{"election", "le-lann", "--dir=my labs/le-lann"}, "my labs/le-lann", "cd 'my labs/le-lann' && go test ./..."},
		{[]string{"mutex", "--dir", "./lab/", "a1"}, "lab", "cd lab && go test ./..."},
	} {
		code, out, msg := run(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s %s", c.args, code, out, msg)
		}
		if _, err := os.Stat(filepath.Join(root, c.dir, "go.mod")); err != nil {
			t.Errorf("%v: no module in %s: %v", c.args, c.dir, err)
		}
		if !strings.HasSuffix(out, ", then run: "+c.wantNext+"\n") {
			t.Errorf("%v: next line is not %q:\n%s", c.args, c.wantNext, out)
		}
	}
	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(empty)
	code, out, msg := run(t, "mutex", "my-lock", "--dir", ".")
	if code != 0 || !strings.HasSuffix(out, "next: fill in the TODOs of Step in mylock/mylock.go, then run: go test ./...\n") {
		t.Fatalf("--dir .: exit %d: %s %s", code, out, msg)
	}
	for _, f := range []string{"go.mod", "go.sum", "main.go", "mylock/mylock.go", "mylock/mylock_test.go"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("--dir .: %v", err)
		}
	}
}

// TestCommandRefuses: a bad NAME, a directory that is not empty, a bad
// --module or --ringlab, an unknown flag after NAME, no NAME or two: one
// line, exit 2, nothing written.
func TestCommandRefuses(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(filepath.Join(full, "go.mod"), []byte("module other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "a")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mutex", "--dir", a, "My-Lock"}, `NAME: "My-Lock" is not a name for a package`},
		{[]string{"mutex", "--dir", a, "my--lock"}, `NAME: "my--lock" is not a name for a package`},
		{[]string{"mutex", "--dir", a, "my-lock-"}, `NAME: "my-lock-" is not a name for a package`},
		{[]string{"mutex", "--dir", a, "fu-nc"}, `NAME: "fu-nc" gives package func, a Go keyword`},
		{[]string{"mutex", "--dir", a, "no-de"}, `NAME: "no-de" gives package node, the name of a package or a command`},
		{[]string{"mutex", "--dir", a, "check"}, `NAME: "check" gives package check, the name of a package or a command`},
		{[]string{"election", "--dir", a, "9lives"}, `NAME: "9lives" is not a name for a package`},
		{[]string{"mutex", "--dir", full, "my-lock"}, "--dir: " + full + " is not empty"},
		{[]string{"mutex", "my-lock", "--dir", file}, "--dir: " + file + " is a file"},
		{[]string{"mutex", "my-lock", "--dir", a, "--module", "Example.com/x"}, `--module: "Example.com/x" is not a module path`},
		{[]string{"mutex", "my-lock", "--dir", a, "--module", "ringlab/mine"}, `--module: "ringlab/mine" is a module path the go command or ringlab uses`},
		{[]string{"mutex", "my-lock", "--dir", a, "--ringlab", other}, "--ringlab: " + other + " is not a ringlab checkout"},
		{[]string{"mutex", "my-lock", "--dir", a, "--ringlab", full}, "--ringlab: " + full + ` is the module "other", not ringlab`},
		{[]string{"mutex", "my-lock", "--dri", a}, "new mutex: flag provided but not defined: -dri"},
		{[]string{"mutex"}, "new mutex: give the algorithm's NAME"},
		{[]string{"mutex", "a", "--dir", a, "b"}, "new mutex: one NAME, got 2 arguments (a b)"},
		{[]string{"mutex", "a", "--", "--dir"}, "new mutex: one NAME, got 2 arguments (a --dir)"},
		{[]string{"queue", "a"}, `unknown subcommand "queue"`},
	} {
		code, _, msg := run(t, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, msg, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("refusals left files behind: %v", entries)
	}
	if entries, _ := os.ReadDir(full); len(entries) != 2 {
		t.Errorf("the full directory was written into: %v", entries)
	}
}

// TestFindRinglab: the checkout this test was built from is this
// repository, and its go.mod reads as the go command reads it.
func TestFindRinglab(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	r, err := scaffold.FindRinglab("")
	if err != nil || r.Dir != repo {
		t.Fatalf("FindRinglab(\"\") = %q, %v; want %s", r.Dir, err, repo)
	}
	code, edit := goCmd(t, repo, "mod", "edit", "-json")
	var mod struct {
		Go      string
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal([]byte(edit), &mod); code != 0 || err != nil {
		t.Fatalf("go mod edit -json: exit %d, %v\n%s", code, err, edit)
	}
	var want []string
	for _, r := range mod.Require {
		want = append(want, r.Path+" "+r.Version)
	}
	if !slices.Equal(r.Requires, want) || r.Go != mod.Go {
		t.Errorf("go %s, requires:\n%s\nwant (go mod edit): go %s\n%s", r.Go, strings.Join(r.Requires, "\n"), mod.Go, strings.Join(want, "\n"))
	}
}

// TestHelpAfterName: --help after NAME shows the help --help before it
// shows, and writes nothing.
func TestHelpAfterName(t *testing.T) {
	t.Chdir(t.TempDir())
	code1, before, _ := run(t, "mutex", "--help")
	code2, after, _ := run(t, "mutex", "my-lock", "--help")
	if code1 != 0 || code2 != 0 || before != after || !strings.Contains(after, "--module PATH") {
		t.Errorf("exit %d, %d; help before NAME:\n%s\nafter:\n%s", code1, code2, before, after)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("--help wrote %v", entries)
	}
}

// TestWriteLeavesNothingOnError: a write that fails half-way (a file
// where a directory must go) removes what it wrote and the directories it
// made; a cancelled command writes nothing.
func TestWriteLeavesNothingOnError(t *testing.T) {
	root := t.TempDir()
	err := scaffold.Write(filepath.Join(root, "new", "nested"), map[string][]byte{"go.mod": nil, "pkg": nil, "pkg/pkg.go": nil})
	if err == nil {
		t.Fatal("Write put a file and a directory at one path")
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("a failed Write left %v", entries)
	}
	t.Chdir(root)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	cmds := []*ucli.Command{scaffold.Command()}
	cliutil.Prepare(cmds)
	app := &ucli.App{Name: "ringlab", Commands: cmds, Writer: io.Discard, ErrWriter: io.Discard}
	if err := app.RunContext(ctx, []string{"ringlab", "new", "mutex", "my-lock"}); cliutil.Code(err) != cliutil.ExitInterrupted {
		t.Errorf("cancelled: %v, exit %d; want %d", err, cliutil.Code(err), cliutil.ExitInterrupted)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("a cancelled new left %v", entries)
	}
}
