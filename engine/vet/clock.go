package vet

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	"ringlab/engine/node"
)

// forbidden lists, by import path, the functions a node must not call
// (nil: any use of the package): the wall clock, random sources and the
// process's environment. A node takes time from timers (InTick), chance
// from its configuration, and everything else from its constructor.
var forbidden = map[string]map[string]bool{
	"time":         set("Now", "Since", "Until", "Tick", "After", "AfterFunc", "NewTimer", "NewTicker", "Sleep"),
	"math/rand":    nil,
	"math/rand/v2": nil,
	"crypto/rand":  nil,
	"os": set("Getpid", "Getppid", "Getuid", "Geteuid", "Getgid", "Getegid", "Getenv", "LookupEnv",
		"Environ", "Hostname", "Getwd", "Executable"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Source runs the clock check on the non-test .go files of the package in
// dir: a call into the wall clock (time.Now, Since, Until, Tick, After,
// AfterFunc, NewTimer, NewTicker, Sleep), any use of math/rand,
// math/rand/v2 or crypto/rand, a read of the process's environment
// (os.Getpid, os.Getenv, ...), and a read of a field named Now
// (node.Output.Now, the runtime's clock, which no algorithm may read) are
// each a finding naming the file and line.
func Source(dir string) ([]Finding, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var fs []Finding
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := scanFile(name, "")
		if err != nil {
			return nil, err
		}
		fs = append(fs, f...)
	}
	return fs, nil
}

// scanFile runs the clock check on one Go source file, as Source does on
// a package's: on the methods of type recv only, if recv is set.
func scanFile(name, recv string) ([]Finding, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var fs []Finding
	add := func(pos token.Pos, method, detail string) {
		fs = append(fs, Finding{Check: CheckClock, Method: method, Detail: fmt.Sprintf("%s: %s", where(fset.Position(pos)), detail)})
	}
	pkgs := map[string]string{} // local name -> import path, of the forbidden packages
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := forbidden[path]; !ok {
			continue
		}
		local := path[strings.LastIndex(path, "/")+1:]
		if path == "math/rand/v2" {
			local = "rand"
		}
		if imp.Name != nil {
			local = imp.Name.Name
		}
		if local == "." {
			add(imp.Pos(), path, fmt.Sprintf("imports %q into the file's scope, so its clock and random calls cannot be told apart", path))
			continue
		}
		pkgs[local] = path
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if fd, ok := n.(*ast.FuncDecl); ok && recv != "" && recvName(fd) != recv {
			return false
		}
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok {
			if path, ok := pkgs[id.Name]; ok {
				if fns := forbidden[path]; fns == nil || fns[sel.Sel.Name] {
					add(sel.Pos(), path+"."+sel.Sel.Name, reason(path, sel.Sel.Name))
				}
				return true
			}
		}
		if sel.Sel.Name == "Now" {
			add(sel.Pos(), ".Now", "reads .Now: node.Output.Now is the runtime's clock, which a Step must not depend on (set a timer instead)")
		}
		return true
	})
	return fs, nil
}

func reason(path, name string) string {
	switch path {
	case "time":
		return fmt.Sprintf("calls time.%s: a node takes time from its timers (Output.SetTimer, InTick), never from the wall clock", name)
	case "os":
		return fmt.Sprintf("calls os.%s: a node takes what it needs from its constructor, not from the process", name)
	}
	return fmt.Sprintf("uses %s.%s: a node draws no random numbers (take a seed or a layout in its configuration)", path, name)
}

// where is a position as a finding shows it: relative to the working
// directory when the file lies below it.
func where(p token.Position) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			p.Filename = rel
		}
	}
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}

// recvName is the name of the type of fd's receiver ("" for a function).
func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// clockOf runs the clock check on the source of nd's Step: the package
// of the file that defines it (found by runtime.FuncForPC), or that file
// alone when it is a _test.go file (an algorithm defined in a test). A
// wrapper (a struct that embeds the node.Node it steps, as an area's
// adapter does, or names it by an Unwrap method) is checked in its own methods only, and the node it wraps
// in its package. It returns why it skipped the check when the source
// cannot be found (a binary built with -trimpath, or one moved from where
// it was built).
func clockOf(nd node.Node) ([]Finding, string) {
	var fs []Finding
	for {
		inner, recv := wrapped(nd)
		file := stepFile(reflect.TypeOf(nd))
		switch {
		case file == "" && inner != nil: // the wrapper's Step is the wrapped node's
			nd = inner
			continue
		case file == "":
			return nil, fmt.Sprintf("no source file is known for %T's Step", nd)
		}
		if _, err := os.Stat(file); err != nil {
			return nil, fmt.Sprintf("the source of %T's Step (%s) is not on this machine", nd, filepath.Base(file))
		}
		var f []Finding
		var err error
		switch {
		case inner != nil:
			f, err = scanFile(file, recv)
		case strings.HasSuffix(file, "_test.go"):
			f, err = scanFile(file, "")
		default:
			f, err = Source(filepath.Dir(file))
		}
		if err != nil {
			return nil, fmt.Sprintf("the source of %T's Step does not parse: %v", nd, err)
		}
		fs = append(fs, f...)
		if inner == nil {
			return fs, ""
		}
		nd = inner
	}
}

// wrapped returns the node nd wraps, and the name of nd's type (a
// generic type's without its type arguments), when nd is a struct (or a
// pointer to one) that embeds a non-nil node.Node or names the node it
// wraps by an Unwrap method (as a wrapper that holds its node by its
// concrete type does).
func wrapped(nd node.Node) (node.Node, string) {
	v := reflect.ValueOf(nd)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, ""
	}
	name, _, _ := strings.Cut(v.Type().Name(), "[")
	if u, ok := nd.(interface{ Unwrap() node.Node }); ok {
		if inner := u.Unwrap(); inner != nil {
			return inner, name
		}
	}
	iface := reflect.TypeFor[node.Node]()
	for k := range v.NumField() {
		f := v.Type().Field(k)
		if f.Anonymous && f.IsExported() && f.Type.Kind() == reflect.Interface && f.Type.Implements(iface) {
			if inner, ok := v.Field(k).Interface().(node.Node); ok && inner != nil {
				return inner, name
			}
		}
	}
	return nil, ""
}

// stepFile is the file that defines t's Step method ("" if unknown). A
// value method reached through a pointer is a generated wrapper; its
// file is the value type's.
func stepFile(t reflect.Type) string {
	for t != nil {
		if m, ok := t.MethodByName("Step"); ok {
			if fn := runtime.FuncForPC(m.Func.Pointer()); fn != nil {
				if file, _ := fn.FileLine(fn.Entry()); file != "" && !strings.HasPrefix(file, "<") {
					return file
				}
			}
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	return ""
}
