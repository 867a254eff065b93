// Package scaffold writes the skeleton of a new algorithm for ringlab's
// tools: `ringlab new mutex NAME` and `ringlab new election NAME` make a
// module of its own that builds offline: its go.mod (which replaces the
// unpublished module ringlab with the checkout the program was built
// from, see Ringlab), its go.sum, a main.go that gives it ringlab's
// commands (cli.Main), and its package, NAME without hyphens. The
// package's Step is a stub with TODOs: a node is its state and its Step,
// and the engine derives the rest (copies, keys). A mutual-exclusion
// skeleton registers through ringlab/mutex/kit, which gives it the
// workload and the properties; an election's skeleton holds its own. Its
// test file lints it (vet.Test), sweeps it over seeded schedules
// (enginetest.Sweep) and searches every state of a small system
// (enginetest.Exhaust). The stubs compile; their tests fail as a student
// expects of an algorithm not written yet: nothing is ever granted or
// elected, "no progress".
package scaffold

import (
	"embed"
	"fmt"
	"go/format"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

//go:embed templates/*.tmpl
var templates embed.FS

// Kinds are the kinds of algorithm New writes, in the order help lists them.
var Kinds = []string{"mutex", "election"}

// namePattern is what NAME may be: words of lower-case ASCII letters and
// digits joined by single hyphens, a letter first.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// taken are the package names the skeleton's files import beside the
// package, and the commands of its program, which no algorithm may be
// named after.
var taken = []string{"main", "os", "cli", "engine", "node", "check", "trace", "vet", "enginetest",
	"explore", "render", "serve", "amqp", "version", "help", "h"}

// PackageName returns the name of the package NAME gives, NAME without its
// hyphens ("my-lock" gives mylock), or an error saying why NAME cannot
// name a package.
func PackageName(name string) (string, error) {
	if len(name) > 40 || !namePattern.MatchString(name) {
		return "", fmt.Errorf("%q is not a name for a package: want lower-case letters and digits, a letter first, words joined by single hyphens (my-lock), at most 40 characters", name)
	}
	pkg := strings.ReplaceAll(name, "-", "")
	switch {
	case token.IsKeyword(pkg):
		return "", fmt.Errorf("%q gives package %s, a Go keyword: give another name", name, pkg)
	case slices.Contains(taken, pkg):
		return "", fmt.Errorf("%q gives package %s, the name of a package or a command the skeleton uses: give another name", name, pkg)
	}
	return pkg, nil
}

// modulePattern is what a module path may be: slash-separated elements of
// ASCII letters, digits and "-._~", none starting or ending with a dot,
// the first in lower case.
var modulePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9-])?(/[A-Za-z0-9_~-]([A-Za-z0-9._~-]*[A-Za-z0-9_~-])?)*$`)

// CheckModulePath returns an error saying why path cannot be the path of
// the new module, or nil.
func CheckModulePath(path string) error {
	switch {
	case len(path) > 200 || !modulePattern.MatchString(path):
		return fmt.Errorf("%q is not a module path: want elements of letters, digits and -._~ joined by slashes, the first in lower case (example.com/my-lock)", path)
	case path == "ringlab" || strings.HasPrefix(path, "ringlab/") || path == "std" || path == "cmd" || strings.HasPrefix(path, "cmd/"):
		return fmt.Errorf("%q is a module path the go command or ringlab uses: give another", path)
	}
	return nil
}

// Skeleton is a new module: what `ringlab new KIND NAME` writes.
type Skeleton struct {
	Kind    string  // one of Kinds
	Name    string  // NAME: the algorithm's name, and the module's unless Module is given
	Module  string  // the module path, or "" for Name
	Ringlab Ringlab // the checkout the module's go.mod replaces ringlab with
}

// Files returns the skeleton's files by slash-separated path: go.mod,
// go.sum, main.go, and PKG/PKG.go and PKG/PKG_test.go, the package.
func (s Skeleton) Files() (map[string][]byte, error) {
	if !slices.Contains(Kinds, s.Kind) {
		return nil, fmt.Errorf("unknown kind %q: want mutex or election", s.Kind)
	}
	pkg, err := PackageName(s.Name)
	if err != nil {
		return nil, err
	}
	module := s.Module
	if module == "" {
		module = s.Name
	}
	if err := CheckModulePath(module); err != nil {
		return nil, err
	}
	fill := strings.NewReplacer("{{.Name}}", s.Name, "{{.Package}}", pkg, "{{.Import}}", module+"/"+pkg)
	files := map[string][]byte{"go.mod": s.goMod(module), "go.sum": s.Ringlab.Sum}
	for tmpl, file := range map[string]string{
		"main.go.tmpl": "main.go", s.Kind + ".go.tmpl": path.Join(pkg, pkg+".go"), s.Kind + "_test.go.tmpl": path.Join(pkg, pkg+"_test.go"),
	} {
		b, err := templates.ReadFile("templates/" + tmpl)
		if err != nil {
			return nil, err
		}
		if files[file], err = format.Source([]byte(fill.Replace(string(b)))); err != nil {
			return nil, fmt.Errorf("%s for %q: %w", file, s.Name, err) // a template broken
		}
	}
	return files, nil
}

// goMod is the new module's go.mod: it requires ringlab, replaced by the
// checkout, and the modules ringlab requires at ringlab's versions.
func (s Skeleton) goMod(module string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\n", module)
	if s.Ringlab.Go != "" {
		fmt.Fprintf(&b, "go %s\n\n", s.Ringlab.Go)
	}
	dir := s.Ringlab.Dir
	if strings.ContainsAny(dir, " \t\"'`(),;\\") {
		dir = strconv.Quote(dir)
	}
	fmt.Fprintf(&b, "require ringlab v0.0.0\n\n// ringlab is not a published module: this is the checkout `ringlab new` was built from.\nreplace ringlab => %s\n", dir)
	if len(s.Ringlab.Requires) > 0 {
		b.WriteString("\n// What ringlab requires, at its versions: the build needs no module that is not\n// in the module cache already. `go mod tidy` drops those the module does not use.\nrequire (\n")
		for _, r := range s.Ringlab.Requires {
			fmt.Fprintf(&b, "\t%s // indirect\n", r)
		}
		b.WriteString(")\n")
	}
	return []byte(b.String())
}

// Write writes files, by slash-separated path, into dir, which must be
// empty or not exist (it is made, with its parents). On an error it
// removes what it wrote and the directories it made: nothing is left
// half-written.
func Write(dir string, files map[string][]byte) (err error) {
	entries, err := os.ReadDir(dir)
	var made []string // the directories made, dir first, then its parents
	switch {
	case os.IsNotExist(err):
		for d := filepath.Clean(dir); !exists(d); d = filepath.Dir(d) {
			made = append(made, d)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		if fi, serr := os.Stat(dir); serr == nil && !fi.IsDir() {
			return fmt.Errorf("%s is a file: give a new or an empty directory", dir)
		}
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty: give a new or an empty directory", dir)
	}
	var wrote []string // the top-level entries written
	defer func() {
		if err != nil {
			for _, w := range wrote {
				os.RemoveAll(filepath.Join(dir, w))
			}
			for _, d := range made {
				os.Remove(d)
			}
		}
	}()
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if top, _, _ := strings.Cut(f, "/"); !slices.Contains(wrote, top) {
			wrote = append(wrote, top)
		}
		name := filepath.Join(dir, filepath.FromSlash(f))
		if err = os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err = os.WriteFile(name, files[f], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// exists says whether a file or directory path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
