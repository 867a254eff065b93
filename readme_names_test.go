package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The READMEs name files, packages and identifiers of the code in backticks
// (`cli/explore.go`, `mutex/internal/ids`, `node.Step`). The tests below
// check that each still exists, so a rename cannot leave a README behind.

var (
	// readmePath is a file or package path in backticks: it ends in .go or
	// a slash, or starts with engine/ or internal/ (a module path
	// "ringlab/..." too).
	readmePath = regexp.MustCompile("`(?:ringlab/)?([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*(?:\\.go|/)|(?:[a-z]+/)*(?:engine|internal)/[a-z0-9_/]+)`")
	// readmeIdent is an identifier of a package in backticks: `sim.Explore`,
	// `node.Input.Now` (the package and the first name are checked; a one-letter
	// name is a placeholder, as in the queue `node.X`).
	readmeIdent = regexp.MustCompile("`\\*?([a-z][a-z0-9]*)\\.([A-Z][A-Za-z0-9_]+)")
)

// repoPaths lists every file and directory of the repository, relative,
// with slashes; .git left out.
func repoPaths(t *testing.T) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		paths = append(paths, filepath.ToSlash(p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// pathNamed reports whether a README's name p (relative to the README, the
// top, internal/, or the tail of a longer path: "snapshot.go" of each
// algorithm package) names a path of the repository.
func pathNamed(paths []string, p string) bool {
	p = strings.TrimSuffix(p, "/")
	for _, q := range paths {
		if q == p || strings.HasSuffix(q, "/"+p) {
			return true
		}
	}
	return false
}

// TestREADMEPathsExist: every file or package path a README names in
// backticks exists in the repository.
func TestREADMEPathsExist(t *testing.T) {
	paths := repoPaths(t)
	checked := 0
	eachREADMELine(t, func(file string, i int, line string) {
		for _, m := range readmePath.FindAllStringSubmatch(line, -1) {
			checked++
			if !pathNamed(paths, m[1]) {
				t.Errorf("%s:%d: %q names no file or package of the repository", file, i+1, m[1])
			}
		}
	})
	if checked < 50 {
		t.Errorf("checked only %d paths; is the extraction broken?", checked)
	}
}

// packageNames returns, for each package name of the repository, the names
// it declares: top-level names, methods and struct fields (a README may
// write `node.Output.Send` or `sim.Runtime.Faults`). Test files count too, for
// the names the READMEs cite of the tests.
func packageNames(t *testing.T, paths []string) map[string]map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	names := map[string]map[string]bool{}
	for _, p := range paths {
		if !strings.HasSuffix(p, ".go") || strings.Contains(p, "/testdata/") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		set := names[pkg]
		if set == nil {
			set = map[string]bool{}
			names[pkg] = set
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				set[n.Name.Name] = true
			case *ast.TypeSpec:
				set[n.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range n.Names {
					set[id.Name] = true
				}
			case *ast.Field:
				for _, id := range n.Names {
					set[id.Name] = true
				}
			}
			return true
		})
	}
	return names
}

// TestREADMEIdentifiersExist: every `pkg.Name` a README writes in backticks,
// for pkg a package of this repository, names something pkg declares.
func TestREADMEIdentifiersExist(t *testing.T) {
	names := packageNames(t, repoPaths(t))
	checked := 0
	eachREADMELine(t, func(file string, i int, line string) {
		for _, m := range readmeIdent.FindAllStringSubmatch(line, -1) {
			set, ok := names[m[1]]
			if !ok {
				continue // a package of the standard library or a module
			}
			checked++
			if !set[m[2]] {
				t.Errorf("%s:%d: %s.%s: package %s declares no %s", file, i+1, m[1], m[2], m[1], m[2])
			}
		}
	})
	if checked < 20 {
		t.Errorf("checked only %d identifiers; is the extraction broken?", checked)
	}
}

// readmeTest is a test, benchmark, fuzz target or example in backticks.
var readmeTest = regexp.MustCompile("`((?:Test|Benchmark|Fuzz|Example)[A-Za-z0-9_]*)")

// TestREADMETestNamesExist: every test, benchmark, fuzz target or example a
// README names is a function of the repository's tests.
func TestREADMETestNamesExist(t *testing.T) {
	names := packageNames(t, repoPaths(t))
	declared := map[string]bool{}
	for _, set := range names {
		for n := range set {
			declared[n] = true
		}
	}
	checked := 0
	eachREADMELine(t, func(file string, i int, line string) {
		for _, m := range readmeTest.FindAllStringSubmatch(line, -1) {
			checked++
			if !declared[m[1]] {
				t.Errorf("%s:%d: %s is no function of the repository", file, i+1, m[1])
			}
		}
	})
	if checked < 20 {
		t.Errorf("checked only %d test names; is the extraction broken?", checked)
	}
}

// eachREADMELine calls f with every line of every README, and its index.
func eachREADMELine(t *testing.T, f func(file string, i int, line string)) {
	t.Helper()
	for _, file := range allREADMEs(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			f(file, i, line)
		}
	}
}
