package main

import (
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The engine is a library: a user who imports one of its packages reads it
// through go doc. The tests below keep every public package under engine/
// documented: a package comment, a doc comment on every exported identifier
// (starting with its name), and at least one runnable Example with an
// "// Output:" line. They walk the tree, so a package added later is held to
// the same rule without being listed here.

// exampleExceptions names the public packages that may go without an
// Example that has an "// Output:" line, each with the reason. They still
// need a compiled Example.
var exampleExceptions = map[string]string{
	"ringlab/engine/amqp/amqptest": "its one helper takes a test's *testing.T and needs a RabbitMQ broker",
	"ringlab/engine/registrytest":  "its one function takes a test's *testing.T; registrytest_test.go runs the Example's sweep",
}

// publicPackage is one package under publicRoots that a user may import.
type publicPackage struct {
	dir, importPath string
	fset            *token.FileSet
	doc             *doc.Package
	examples        []*doc.Example
}

// publicRoots are the trees of the packages a user imports: the engine,
// and the mutual-exclusion kit an algorithm of any module registers with.
var publicRoots = []string{"engine", filepath.Join("mutex", "kit")}

// publicPackages parses every non-internal package under publicRoots with
// the files go/build selects for this platform.
func publicPackages(t *testing.T) []publicPackage {
	t.Helper()
	var pkgs []publicPackage
	walk := func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "internal", "testdata":
			return filepath.SkipDir
		}
		if strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bp.GoFiles) == 0 {
			return nil // tests alone: nothing a user imports
		}
		fset := token.NewFileSet()
		parse := func(names []string) []*ast.File {
			var files []*ast.File
			for _, name := range names {
				f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
			return files
		}
		importPath := "ringlab/" + filepath.ToSlash(dir)
		p, err := doc.NewFromFiles(fset, parse(bp.GoFiles), importPath)
		if err != nil {
			return err
		}
		tests := parse(append(slices.Clone(bp.TestGoFiles), bp.XTestGoFiles...))
		pkgs = append(pkgs, publicPackage{dir, importPath, fset, p, doc.Examples(tests...)})
		return nil
	}
	for _, root := range publicRoots {
		if err := filepath.WalkDir(root, walk); err != nil {
			t.Fatal(err)
		}
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d public packages under engine/; the walk is broken", len(pkgs))
	}
	return pkgs
}

// TestPublicEngineIsDocumented fails naming each exported identifier of a
// public engine package that has no doc comment, or whose doc comment does
// not start with its name, and each such package without a package comment.
func TestPublicEngineIsDocumented(t *testing.T) {
	for _, p := range publicPackages(t) {
		for _, problem := range undocumented(p.fset, p.doc) {
			t.Errorf("%s: %s", p.importPath, problem)
		}
	}
}

// TestPublicEngineHasExamples fails naming each public engine package
// without a runnable Example whose output go test checks.
func TestPublicEngineHasExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range publicPackages(t) {
		seen[p.importPath] = true
		if len(p.examples) == 0 {
			t.Errorf("%s: no Example", p.importPath)
			continue
		}
		if _, excepted := exampleExceptions[p.importPath]; excepted {
			continue
		}
		if !slices.ContainsFunc(p.examples, func(e *doc.Example) bool { return e.Output != "" }) {
			t.Errorf("%s: no Example with an \"// Output:\" line", p.importPath)
		}
	}
	for path := range exampleExceptions {
		if !seen[path] {
			t.Errorf("exampleExceptions names %s, which is not a public engine package", path)
		}
	}
}

// undocumented lists the exported identifiers of p that lack a doc comment
// starting with their name, and the package comment if it is missing.
func undocumented(fset *token.FileSet, p *doc.Package) []string {
	var out []string
	if !strings.HasPrefix(p.Doc, "Package "+p.Name+" ") {
		out = append(out, "no package comment starting \"Package "+p.Name+" \"")
	}
	named := func(what, recv, name, text string) {
		label := what + " " + recv + name
		if text == "" {
			out = append(out, label+": no doc comment")
		} else if !startsWith(text, name) {
			out = append(out, label+": doc comment does not start with its name")
		}
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			out = append(out, undocumentedValues(v)...)
		}
	}
	values(p.Consts)
	values(p.Vars)
	for _, f := range p.Funcs {
		named("func", "", f.Name, f.Doc)
	}
	for _, typ := range p.Types {
		named("type", "", typ.Name, typ.Doc)
		values(typ.Consts)
		values(typ.Vars)
		for _, f := range typ.Funcs {
			named("func", "", f.Name, f.Doc)
		}
		for _, m := range typ.Methods {
			if m.Level > 0 {
				continue // promoted from an embedded type, documented there
			}
			named("method", typ.Name+".", m.Name, m.Doc)
		}
		for _, spec := range typ.Decl.Specs {
			ts := spec.(*ast.TypeSpec)
			if ts.Name.Name != typ.Name {
				continue
			}
			out = append(out, undocumentedMembers(fset, typ.Name, ts.Type)...)
		}
	}
	return out
}

// undocumentedValues checks a const or var declaration: a group comment
// covers the group; otherwise each exported name needs its own comment, on
// the line above or at the end of its line.
func undocumentedValues(v *doc.Value) []string {
	if v.Doc != "" {
		if len(v.Names) == 1 && !startsWith(v.Doc, v.Names[0]) {
			return []string{"value " + v.Names[0] + ": doc comment does not start with its name"}
		}
		return nil
	}
	var out []string
	for _, spec := range v.Decl.Specs {
		vs := spec.(*ast.ValueSpec)
		if vs.Doc != nil || vs.Comment != nil {
			continue
		}
		for _, n := range vs.Names {
			if n.IsExported() {
				out = append(out, "value "+n.Name+": no doc comment")
			}
		}
	}
	return out
}

// undocumentedMembers lists the exported fields of a struct type and the
// methods of an interface type that have no comment. A member is documented
// by a comment above it or at the end of its line, or by the comment above
// the first of a block of adjacent lines it belongs to (a group comment such
// as "Sink receives ...; Skip lists ..."). An embedded field is documented by
// its own type.
func undocumentedMembers(fset *token.FileSet, typeName string, expr ast.Expr) []string {
	var fields *ast.FieldList
	what := "field"
	switch x := expr.(type) {
	case *ast.StructType:
		fields = x.Fields
	case *ast.InterfaceType:
		fields, what = x.Methods, "method"
	default:
		return nil
	}
	var out []string
	covered, prevEnd := false, -1
	for _, f := range fields.List {
		line := fset.Position(f.Pos()).Line
		switch {
		case f.Doc != nil:
			covered = true
		case f.Comment != nil:
		case covered && line == prevEnd+1:
		default:
			covered = false
			for _, n := range f.Names {
				if n.IsExported() {
					out = append(out, what+" "+typeName+"."+n.Name+": no doc comment")
				}
			}
		}
		prevEnd = fset.Position(f.End()).Line
		if f.Comment != nil {
			prevEnd = max(prevEnd, fset.Position(f.Comment.End()).Line)
		}
	}
	return out
}

// startsWith reports whether a doc comment starts with name, allowing a
// leading article ("A Node is ...") as Go's own doc comments do.
func startsWith(text, name string) bool {
	for _, lead := range []string{"", "A ", "An ", "The "} {
		rest, ok := strings.CutPrefix(text, lead+name)
		if ok && (rest == "" || !isIdentRune(rest[0])) {
			return true
		}
	}
	return false
}

func isIdentRune(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// TestUndocumentedFindsGaps runs the checker over a package written to
// hold each kind of gap and each kind of documentation it accepts, so the
// tests above cannot pass by seeing nothing.
func TestUndocumentedFindsGaps(t *testing.T) {
	const src = `// Package gaps is documented.
package gaps

func Bare() {}

// Named does its job.
func Named() {}

// does not start with its name.
func Misnamed() {}

// A Thing is a thing, with an article.
type Thing struct {
	// Group and Grouped share this comment.
	Group   int
	Grouped int

	Alone int
	Inline int // says what it is
	hidden int
}

func (Thing) Method() {}

// Limits, a group comment.
const (
	One = 1
	Two = 2
)

const Lone = 3

// Ifc is an interface.
type Ifc interface {
	Do()
	// Done says so.
	Done() bool
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gaps.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p, err := doc.NewFromFiles(fset, []*ast.File{f}, "example.com/gaps")
	if err != nil {
		t.Fatal(err)
	}
	got := undocumented(fset, p)
	want := []string{
		"value Lone: no doc comment",
		"func Bare: no doc comment",
		"func Misnamed: doc comment does not start with its name",
		"method Ifc.Do: no doc comment",
		"method Thing.Method: no doc comment",
		"field Thing.Alone: no doc comment",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("undocumented found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
