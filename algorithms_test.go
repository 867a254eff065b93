package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// clockImports are the packages through which a node could read the wall
// clock or draw random numbers.
var clockImports = []string{"time", "math/rand", "math/rand/v2", "crypto/rand"}

// algorithmDirs are the algorithm packages of the areas: one folder each
// under mutex/ and election/, beside the areas' internal/ helpers.
func algorithmDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, area := range []string{"mutex", "election"} {
		entries, err := os.ReadDir(area)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() && e.Name() != "internal" && e.Name() != "testdata" {
				dirs = append(dirs, filepath.Join(area, e.Name()))
			}
		}
	}
	return dirs
}

// No algorithm reads Output.Now, the wall clock or a random source: its Step
// must depend on its state and its input alone. The exhaustive checker
// takes two states with equal keys for one state, and the simulator
// replays a seed bit for bit, only because of it; every algorithm's
// timeouts are timers (InTick) instead.
func TestAlgorithmsReadNoClock(t *testing.T) {
	dirs := algorithmDirs(t)
	if len(dirs) < 13 {
		t.Fatalf("found %d algorithm packages (%v), want the 13 of mutex/ and election/", len(dirs), dirs)
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, c := range clockImports {
					if path == c {
						t.Errorf("%s imports %q: an algorithm takes time from timers and randomness from its configuration", fset.Position(imp.Pos()), path)
					}
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Now" {
					t.Errorf("%s reads .Now: an algorithm's Step must not depend on the time it runs (set a timer instead)", fset.Position(sel.Pos()))
				}
				return true
			})
		}
	}
}
