package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the repository may be, from
// its func line to its closing brace: a longer one is split into named
// steps a reader can follow.
const maxFuncLines = 100

// longTables are the functions allowed to be longer because they are
// tables, one entry per algorithm or scenario, not logic.
var longTables = map[string]bool{
	"mutex/algorithms.go list":     true, // the mutual-exclusion algorithms
	"mutex/scenarios.go scenarios": true, // the chapter's scenarios
}

// TestNoLongFunctions: no function of the repository's non-test code is
// over maxFuncLines lines but the tables of longTables (each of which must
// still be long: a stale entry fails too). Generated files are left out.
func TestNoLongFunctions(t *testing.T) {
	long := longFunctions(t)
	if len(long) == 0 && len(longTables) > 0 {
		t.Fatal("no long function found at all, not even the tables: is the walk broken?")
	}
	for where, n := range long {
		if !longTables[where] {
			t.Errorf("%s is %d lines, over %d: split it into named steps (or, if it is a table, list it in longTables)", where, n, maxFuncLines)
		}
	}
	for where := range longTables {
		if _, ok := long[where]; !ok {
			t.Errorf("longTables lists %s, which is no longer over %d lines: take it off the list", where, maxFuncLines)
		}
	}
}

// longFunctions maps every function over maxFuncLines lines in the
// repository's non-test, non-generated Go files ("dir/file.go name", a
// method named by its receiver's type: "engine/cli/check.go Check",
// "engine/amqp/amqp.go runner.run") to its length. A function literal
// outside any function counts as a function of its own.
func longFunctions(t *testing.T) map[string]int {
	t.Helper()
	fset := token.NewFileSet()
	long := map[string]int{}
	files := 0
	for _, p := range repoPaths(t) {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.Contains(p, "testdata/") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		files++
		for _, d := range f.Decls {
			for name, fn := range declFuncs(d) {
				n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
				if n > maxFuncLines {
					long[p+" "+name] = n
				}
			}
		}
	}
	if files < 100 {
		t.Fatalf("read only %d Go files; is the walk broken?", files)
	}
	return long
}

// declFuncs are the functions of a declaration by the name a long one is
// reported by: a function's name (Type.Method for a method), or a
// variable's name for a function literal it is set to.
func declFuncs(d ast.Decl) map[string]ast.Node {
	fns := map[string]ast.Node{}
	switch d := d.(type) {
	case *ast.FuncDecl:
		fns[funcName(d)] = d
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for k, v := range vs.Values {
				if lit, ok := v.(*ast.FuncLit); ok && k < len(vs.Names) {
					fns[vs.Names[k].Name] = lit
				}
			}
		}
	}
	return fns
}

// funcName is a function's name, or Type.Method for a method.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}
