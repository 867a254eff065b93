// Package labtest grades a lab's submissions the way the autograder does,
// for the grading tests of the labs under examples/.
//
// A lab is a package holding the reference solution (one file students
// hand in) beside its visible and hidden tests, and a points file. Grade
// puts a submitted file in place of the solution, in a module of its own
// that finds the examples module and ringlab where they are, runs
// go test -json -tags hidden there, and grades the stream with the points
// file, as `ringlab grade` does. Check then asserts what each graded test
// must show a student.
package labtest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ringlab/engine/grade"
)

// examplesModule is the module path of the examples module.
const examplesModule = "example.com/ringlab-examples"

// Lab names a lab's package and its points file, relative to the
// directory a grading test runs in (its package directory).
type Lab struct {
	// Package is the directory of the package under test, e.g. "ricart".
	// Every file in it is copied into the submission's package, with the
	// package's import path rewritten, except File, which the submission
	// replaces.
	Package string
	// File is the name of the file students hand in, e.g. "ricart.go".
	File string
	// Points is the points file, e.g. "points".
	Points string
}

// Grade grades the submission in file (a path to a student's copy of
// lab.File) and returns the results and the results.json written, which
// it checks against Gradescope's fields. It skips in -short: it runs go
// test in a module of its own.
func Grade(t *testing.T, lab Lab, file string) (grade.Results, []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("grading runs go test in a module of its own: not in -short")
	}
	dir := module(t)
	pkgDir, importPath := packagePaths(t, lab.Package)
	pkg := filepath.Join(dir, filepath.Base(lab.Package))
	copyPackage(t, pkgDir, pkg, lab.File, importPath, "grading/"+filepath.Base(lab.Package))
	copyFile(t, file, filepath.Join(pkg, lab.File))

	cmd := exec.Command("go", "test", "-json", "-tags", "hidden", "./"+filepath.Base(lab.Package))
	cmd.Dir = dir
	cmd.Env = append(unset(os.Environ(), "RINGLAB_SEED", "RINGLAB_PATH"), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("go test: %v\n%s", err, stderr.String())
		}
	}
	points := readPoints(t, lab.Points)
	s, err := grade.ReadStream(&stdout)
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	res := grade.Grade(s, points)
	var b bytes.Buffer
	if err := res.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := grade.Validate(b.Bytes()); err != nil {
		t.Fatalf("results.json does not match Gradescope's fields: %v\n%s", err, b.String())
	}
	write(t, filepath.Join(t.TempDir(), "results.json"), b.String())
	return res, b.Bytes()
}

// module writes a module "grading" in a temporary directory whose go.mod
// is the examples module's with ringlab and the examples module replaced
// by where they are, and returns its directory.
func module(t *testing.T) string {
	t.Helper()
	examples := examplesDir(t)
	repo := filepath.Dir(examples)
	mod, err := os.ReadFile(filepath.Join(examples, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := strings.Replace(string(mod), "module "+examplesModule, "module grading", 1)
	gomod = strings.Replace(gomod, "replace ringlab => ../", "replace ringlab => "+repo, 1)
	gomod += "\nrequire " + examplesModule + " v0.0.0\n\nreplace " + examplesModule + " => " + examples + "\n"
	dir := t.TempDir()
	copyFile(t, filepath.Join(examples, "go.sum"), filepath.Join(dir, "go.sum"))
	write(t, filepath.Join(dir, "go.mod"), gomod)
	return dir
}

// examplesDir finds the examples module's directory: the nearest
// directory above the working directory whose go.mod declares it.
func examplesDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module "+examplesModule+"\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod of %s above the working directory", examplesModule)
		}
		dir = parent
	}
}

// packagePaths returns the absolute directory of the package in rel and
// its import path in the examples module.
func packagePaths(t *testing.T, rel string) (dir, importPath string) {
	t.Helper()
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	inModule, err := filepath.Rel(examplesDir(t), dir)
	if err != nil || strings.HasPrefix(inModule, "..") {
		t.Fatalf("package %s is not in the examples module", rel)
	}
	return dir, examplesModule + "/" + filepath.ToSlash(inModule)
}

// copyPackage copies the regular files of the package in from to to,
// except the file skip, rewriting the import path old to new in them.
func copyPackage(t *testing.T, from, to, skip, old, new string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == skip {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(to, e.Name()), strings.ReplaceAll(string(b), `"`+old+`"`, `"`+new+`"`))
	}
}

// readPoints parses the points file at path.
func readPoints(t *testing.T, path string) []grade.Points {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	points, err := grade.ParsePoints(f)
	if err != nil {
		t.Fatal(err)
	}
	return points
}

// unset drops the variables named from env.
func unset(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			keep = keep && k != n
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(b))
}

// ByName indexes the graded tests by name.
func ByName(res grade.Results) map[string]grade.TestResult {
	m := map[string]grade.TestResult{}
	for _, tr := range res.Tests {
		m[tr.Name] = tr
	}
	return m
}

// Want is what one graded test must show: its status ("passed" or
// "failed"), its visibility when not empty, and text its output holds.
type Want struct {
	// Test is the graded test's name.
	Test string
	// Status is "passed" or "failed".
	Status string
	// Visibility, when not empty, is the visibility the points file gives.
	Visibility string
	// Output lists strings the test's output must contain.
	Output []string
}

// Check reports, through t, every way the results miss a Want: a test
// not graded, another status or visibility, a failed test scoring
// points, a string missing from the output. raw is the results.json,
// shown when a test is missing.
func Check(t testing.TB, res grade.Results, raw []byte, wants ...Want) {
	t.Helper()
	tests := ByName(res)
	for _, w := range wants {
		tr, ok := tests[w.Test]
		if !ok {
			t.Errorf("%s not graded:\n%s", w.Test, raw)
			continue
		}
		if tr.Status != w.Status {
			t.Errorf("%s: %s, want %s\n%s", w.Test, tr.Status, w.Status, tr.Output)
		}
		if tr.Status == "failed" && tr.Score != 0 {
			t.Errorf("%s failed but scores %v of %v", w.Test, tr.Score, tr.MaxScore)
		}
		if w.Visibility != "" && tr.Visibility != w.Visibility {
			t.Errorf("%s: visibility %s, want %s", w.Test, tr.Visibility, w.Visibility)
		}
		for _, s := range w.Output {
			if !strings.Contains(tr.Output, s) {
				t.Errorf("%s: no %q in its output:\n%s", w.Test, s, tr.Output)
			}
		}
	}
}
