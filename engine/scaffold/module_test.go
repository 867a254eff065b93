package scaffold_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ringlab/engine/scaffold"
)

// goCmd runs the go command in dir, offline (GOPROXY=off: only the module
// cache) and without touching go.mod (-mod=readonly), and returns its exit
// code and output.
func goCmd(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly -buildvcs=false", "GOWORK=off", "GOPROXY=off")
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

// fill replaces each "--- TODO" section of the fixture file with the
// "--- CODE" section after it in src; each must occur in src once.
func fill(t *testing.T, src, fixture string) string {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	sections := strings.Split(string(b), "--- TODO\n")[1:]
	if len(sections) == 0 {
		t.Fatalf("%s: no --- TODO section", fixture)
	}
	for _, s := range sections {
		todo, code, ok := strings.Cut(s, "--- CODE\n")
		if !ok || strings.Count(src, todo) != 1 {
			t.Fatalf("%s: the skeleton has no (single) %q", fixture, todo)
		}
		src = strings.Replace(src, todo, code, 1)
	}
	return src
}

// TestNewModuleOffline is `ringlab new KIND NAME` in an empty directory,
// run by the binary: the module it writes builds and tests offline with
// the module cache alone and go.mod as written; its tests fail red with
// the commands that replay them; with its TODOs filled in (a fixture in
// testdata) they pass, and its main checks the algorithm, exit 0.
func TestNewModuleOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ringlab and two modules of their own with the go command: not in -short")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "ringlab")
	if code, out := goCmd(t, repo, "build", "-o", bin, "."); code != 0 {
		t.Fatalf("go build: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		kind, name, pkg string
		red             []string // in the output of the skeleton's go test ./...
	}{
		{"mutex", "my-lock", "mylock", []string{
			"my-lock, seed 1 of 1..100: no progress: no deadlock violated: node 1, node 2 and node 3 still waiting for the critical section",
			"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweep$' ./mylock",
			"my-lock: no deadlock violated after 3 steps (a shortest path)", "✗ no starvation: 3 request(s) of node 1, node 2 and node 3 never granted",
			"path: c1,c2,c3\n", "replay (prints the run): RINGLAB_PATH=c1,c2,c3 go test -run '^TestExhaust$' ./mylock",
			"--- FAIL: TestSweep", "--- FAIL: TestExhaust", "FAIL\tmy-lock/mylock"}},
		{"election", "chang-roberts", "changroberts", []string{
			"chang-roberts, seed 1 of 1..100: leader elected violated: node 1, node 2, node 3, node 4 and node 5 know no leader",
			"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweep$' ./changroberts",
			"replay (prints the run): RINGLAB_PATH=c1,c2,c3 go test -run '^TestExhaust$' ./changroberts",
			"FAIL\tchang-roberts/changroberts"}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, "new", c.kind, c.name)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.HasSuffix(string(out), "then run: cd "+c.name+" && go test ./...\n") {
				t.Fatalf("ringlab new: %v\n%s", err, out)
			}
			mod := filepath.Join(dir, c.name)
			if code, out := goCmd(t, mod, "vet", "./..."); code != 0 {
				t.Fatalf("go vet: exit %d\n%s", code, out)
			}
			code, test := goCmd(t, mod, "test", "./...")
			if code != 1 {
				t.Fatalf("go test: exit %d, want 1 (the tests fail)\n%s", code, test)
			}
			for _, w := range c.red {
				if !strings.Contains(test, w) {
					t.Errorf("go test: no %q in\n%s", w, test)
				}
			}
			file := filepath.Join(mod, c.pkg, c.pkg+".go")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(fill(t, string(src), filepath.Join("testdata", c.kind+".fill"))), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out := goCmd(t, mod, "test", "./..."); code != 0 || !strings.Contains(out, "ok  \t"+c.name+"/"+c.pkg) {
				t.Fatalf("go test, the TODOs filled in: exit %d\n%s", code, out)
			}
			if code, out := goCmd(t, mod, "run", ".", "check", c.name); code != 0 || !strings.Contains(out, "no violation") {
				t.Fatalf("go run . check %s: exit %d\n%s", c.name, code, out)
			}
		})
	}
}

// testRinglab is a checkout for the files of a skeleton, not read from a
// directory.
var testRinglab = scaffold.Ringlab{Dir: "/src/ring lab", Go: "1.26.0", Requires: []string{"example.com/a v1.0.0"}, Sum: []byte("example.com/a v1.0.0 h1:x=\n")}

// TestFilesGoMod: go.mod names the module, requires ringlab, replaces it
// with the checkout (quoted, for its space) and requires ringlab's modules.
func TestFilesGoMod(t *testing.T) {
	files, err := scaffold.Skeleton{Kind: "mutex", Name: "my-lock", Module: "example.com/x/my-lock", Ringlab: testRinglab}.Files()
	if err != nil {
		t.Fatal(err)
	}
	gomod := string(files["go.mod"])
	for _, w := range []string{"module example.com/x/my-lock\n\ngo 1.26.0\n", "\nrequire ringlab v0.0.0\n", "\nreplace ringlab => \"/src/ring lab\"\n", "\n\texample.com/a v1.0.0 // indirect\n"} {
		if !strings.Contains(gomod, w) {
			t.Errorf("go.mod has no %q:\n%s", w, gomod)
		}
	}
	if string(files["go.sum"]) != string(testRinglab.Sum) {
		t.Errorf("go.sum is not ringlab's:\n%s", files["go.sum"])
	}
	if !strings.Contains(string(files["main.go"]), "\t\"example.com/x/my-lock/mylock\"\n") {
		t.Errorf("main.go does not import the package:\n%s", files["main.go"])
	}
}

// FuzzFiles: every NAME PackageName accepts makes, with every module path
// CheckModulePath accepts, files that parse as Go source of the package
// it names, and a main.go that imports that package from the module.
func FuzzFiles(f *testing.F) {
	for _, s := range []string{"my-lock", "a", "x9", "fu-nc", "My", "", "a--b", "αβ", "suzuki-kasami"} {
		f.Add(s, "")
		f.Add(s, "example.com/labs/"+s)
	}
	f.Fuzz(func(t *testing.T, name, module string) {
		pkg, err := scaffold.PackageName(name)
		if err != nil || module != "" && scaffold.CheckModulePath(module) != nil {
			return
		}
		if module == "" {
			module = name
		}
		for _, kind := range scaffold.Kinds {
			files, err := scaffold.Skeleton{Kind: kind, Name: name, Module: module, Ringlab: testRinglab}.Files()
			if err != nil {
				t.Fatalf("Files(%s, %q, %q): %v, though the name and module are accepted", kind, name, module, err)
			}
			for fn, src := range files {
				if !strings.HasSuffix(fn, ".go") {
					continue
				}
				af, err := parser.ParseFile(token.NewFileSet(), fn, src, parser.ImportsOnly)
				want := pkg
				if fn == "main.go" {
					want = "main"
				}
				if err != nil || af.Name.Name != want || fn != "main.go" && fn != pkg+"/"+pkg+".go" && fn != pkg+"/"+pkg+"_test.go" {
					t.Fatalf("%s for %q does not parse as package %s: %v", fn, name, want, err)
				}
				if fn == "main.go" && strconv.Quote(module+"/"+pkg) != af.Imports[len(af.Imports)-1].Path.Value {
					t.Fatalf("main.go for %q, %q imports %s", name, module, af.Imports[len(af.Imports)-1].Path.Value)
				}
			}
		}
	})
}
