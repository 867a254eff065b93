package node_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A node that says it is Clockless gets Now = 0 on the live runtime, so
// its package must never read an Input's Now. This reads the source of
// every package of the module that declares a Clockless method and fails
// on any selector .Now in it (time.Now, a function, is allowed).
func TestClocklessNodesNeverReadNow(t *testing.T) {
	root := filepath.Join("..", "..")
	pkgs := map[string][]*ast.File{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkgs[filepath.Dir(path)] = append(pkgs[filepath.Dir(path)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	clockless := 0
	for dir, files := range pkgs {
		if !declaresClockless(files) {
			continue
		}
		clockless++
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Now" {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" {
					return true
				}
				t.Errorf("%s: %s reads .Now, but the package's nodes say they are node.Clockless", dir, fset.Position(sel.Pos()))
				return true
			})
		}
	}
	if clockless < 10 {
		t.Errorf("found %d packages with clockless nodes; the walk missed the algorithms", clockless)
	}
}

func declaresClockless(files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "Clockless" {
				return true
			}
		}
	}
	return false
}
