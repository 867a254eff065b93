package scaffold_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"ringlab/engine/cliutil"
	"ringlab/engine/scaffold"
)

// module makes a throwaway module in a temporary directory that finds
// ringlab at this repository, and returns its directory.
func module(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module student\n\ngo 1.26.0\n\nrequire ringlab v0.0.0\n\nreplace ringlab => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// goCmd runs the go command in dir and returns its exit code and output.
func goCmd(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("go %v: %v", args, err)
	}
	return 0, out.String()
}

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

// TestSkeletonsCompileAndFailAsExpected: each kind's skeleton, written by
// the command into a throwaway module, passes go vet, and its tests fail
// the way a student expects of a Step not written yet: no progress,
// with a seed and a path to replay.
func TestSkeletonsCompileAndFailAsExpected(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module of its own with the go command: not in -short")
	}
	mod := module(t)
	for _, c := range []struct {
		kind, name string
		want       []string
	}{
		{"mutex", "mylock", []string{
			"mylock, seed 1 of 1..100: no progress: every request granted violated: 3 of 3 requests never granted: node 1, node 2 and node 3 still waiting",
			"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweep$' ./mylock",
			"mylock: every request granted violated after 3 steps (a shortest path): 3 of 3 requests never granted",
			"path: c1,c2,c3\n", "replay (prints the run): RINGLAB_PATH=c1,c2,c3 go test -run '^TestExhaust$' ./mylock",
			"node 1   cmd   request", "--- FAIL: TestSweep", "--- FAIL: TestExhaust"}},
		{"election", "myvote", []string{
			"myvote, seed 1 of 1..100: no progress: leader elected violated: node 1, node 2, node 3, node 4 and node 5 know no leader",
			"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweep$' ./myvote",
			"myvote: leader elected violated after 3 steps (a shortest path): node 1, node 2 and node 3 know no leader",
			"replay (prints the run): RINGLAB_PATH=c1,c2,c3 go test -run '^TestExhaust$' ./myvote"}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			code, out, msg := run(t, c.kind, "--dir", filepath.Join(mod, c.name), c.name)
			if code != 0 || !strings.Contains(out, "wrote ") {
				t.Fatalf("exit %d: %s %s", code, out, msg)
			}
			if code, out := goCmd(t, mod, "vet", "./"+c.name); code != 0 {
				t.Fatalf("go vet: exit %d\n%s", code, out)
			}
			code, out = goCmd(t, mod, "test", "./"+c.name)
			if code != 1 {
				t.Fatalf("go test: exit %d, want 1 (the tests fail)\n%s", code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("go test: no %q in\n%s", w, out)
				}
			}
		})
	}
}

// TestAnElectionWrittenInPasses fills in the election skeleton's TODOs
// with Chang and Roberts' algorithm: its tests pass, so the skeleton's
// tests and properties accept a correct algorithm and do not fail
// whatever is written.
func TestAnElectionWrittenInPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module of its own with the go command: not in -short")
	}
	mod := module(t)
	if code, out, msg := run(t, "election", "--dir", filepath.Join(mod, "cr"), "cr"); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, msg)
	}
	file := filepath.Join(mod, "cr", "cr.go")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, r := range []struct{ todo, code string }{
		{"			// TODO: stand as a candidate: send your id round the ring\n			// (out.Send(nd.next, ...)).\n",
			"			out.Send(nd.next, Msg{Kind: MsgElection, ID: nd.id})\n"},
		{"			// TODO: pass on a higher id, swallow a lower one; your own id\n			// back means you won: announce it.\n",
			"			switch {\n			case m.ID > nd.id:\n				out.Send(nd.next, m)\n			case m.ID == nd.id:\n				nd.leader = nd.id\n				out.Leader(nd.id)\n				out.Send(nd.next, Msg{Kind: MsgElected, ID: nd.id})\n			}\n"},
		{"			// TODO: take m.ID as leader (nd.leader = m.ID; out.Leader(m.ID))\n			// and pass the news on, unless it is yours.\n",
			"			if m.ID != nd.id {\n				nd.leader = m.ID\n				out.Leader(m.ID)\n				out.Send(nd.next, m)\n			}\n"},
	} {
		if strings.Count(src, r.todo) != 1 {
			t.Fatalf("the skeleton has no TODO %q", r.todo)
		}
		src = strings.Replace(src, r.todo, r.code, 1)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := goCmd(t, mod, "test", "-v", "./cr"); code != 0 || !strings.Contains(out, "cr: exhausted, no violation") {
		t.Fatalf("go test: exit %d\n%s", code, out)
	}
}

// TestCommandRefuses: a bad NAME, an existing directory, no NAME or two:
// one line, exit 2, nothing written.
func TestCommandRefuses(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken")
	if err := os.Mkdir(taken, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mutex", "--dir", filepath.Join(dir, "a"), "My-Lock"}, `NAME: "My-Lock" is not a package name`},
		{[]string{"mutex", "--dir", filepath.Join(dir, "a"), "func"}, `NAME: "func" is a Go keyword`},
		{[]string{"mutex", "--dir", filepath.Join(dir, "a"), "node"}, `NAME: "node" is the name of a package the skeleton uses`},
		{[]string{"election", "--dir", filepath.Join(dir, "a"), "9lives"}, `NAME: "9lives" is not a package name`},
		{[]string{"mutex", "--dir", taken, "mylock"}, "--dir: " + taken + " exists already"},
		{[]string{"mutex"}, "new mutex: give the package's NAME"},
		{[]string{"mutex", "a", "b"}, "new mutex: one NAME, got 2 arguments (a b)"},
		{[]string{"queue", "a"}, `unknown subcommand "queue"`},
	} {
		code, _, msg := run(t, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, msg, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("refusals left files behind: %v", entries)
	}
	if entries, _ := os.ReadDir(taken); len(entries) != 0 {
		t.Errorf("the existing directory was written into: %v", entries)
	}
}

// FuzzFiles: every name CheckName accepts makes files that parse as Go
// source of the package of that name.
func FuzzFiles(f *testing.F) {
	for _, s := range []string{"mylock", "a", "x9", "func", "My", "", "ab_c", "αβ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, kind := range scaffold.Kinds {
			files, err := scaffold.Files(kind, name)
			if err != nil {
				if scaffold.CheckName(name) == nil {
					t.Fatalf("Files(%q, %q): %v, though the name is accepted", kind, name, err)
				}
				continue
			}
			for fn, src := range files {
				af, err := parser.ParseFile(token.NewFileSet(), fn, src, parser.PackageClauseOnly)
				if err != nil || af.Name.Name != name {
					t.Fatalf("%s for %q does not parse as package %s: %v", fn, name, name, err)
				}
			}
		}
	})
}
