// Package scaffold writes the skeleton of a new algorithm for ringlab's
// tools: `ringlab new mutex NAME` and `ringlab new election NAME` make a
// directory NAME holding package NAME, whose Step is a stub with TODOs
// (its messages, its node state with Clone and AppendKey, a factory, its
// message registry, the Algorithm value with its properties registered
// once) and NAME_test.go, which lints it (vet.Test), sweeps it over seeded
// schedules (enginetest.Sweep) and searches every state of a small system
// (enginetest.Exhaust). The stubs compile; their tests fail as a student
// expects of an algorithm not written yet: nothing is ever granted or
// elected, "no progress".
package scaffold

import (
	"bytes"
	"embed"
	"fmt"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

//go:embed templates/*.tmpl
var templates embed.FS

// Kinds are the kinds of algorithm New writes, in the order help lists them.
var Kinds = []string{"mutex", "election"}

// namePattern is what a package name may be: lower-case ASCII letters and
// digits, a letter first, as Go's style for package names asks.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9]{0,31}$`)

// CheckName returns an error saying why name cannot name a package, or nil.
func CheckName(name string) error {
	switch {
	case !namePattern.MatchString(name):
		return fmt.Errorf("%q is not a package name: want lower-case letters and digits, a letter first, at most 32", name)
	case token.IsKeyword(name):
		return fmt.Errorf("%q is a Go keyword: give the package another name", name)
	case name == "main" || name == "engine" || name == "node" || name == "check" || name == "trace" || name == "vet" || name == "enginetest":
		return fmt.Errorf("%q is the name of a package the skeleton uses: give it another", name)
	}
	return nil
}

// Files returns the files of a kind's skeleton for package name, by file
// name, without writing them.
func Files(kind, name string) (map[string][]byte, error) {
	if !slices.Contains(Kinds, kind) {
		return nil, fmt.Errorf("unknown kind %q: want mutex or election", kind)
	}
	if err := CheckName(name); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for tmpl, file := range map[string]string{kind + ".go.tmpl": name + ".go", kind + "_test.go.tmpl": name + "_test.go"} {
		b, err := templates.ReadFile("templates/" + tmpl)
		if err != nil {
			return nil, err
		}
		files[file] = bytes.ReplaceAll(b, []byte("{{.Name}}"), []byte(name))
	}
	return files, nil
}

// Write writes the skeleton of a kind's package name into dir, which must
// not exist. It writes into a new directory beside dir and renames that
// into place: dir appears whole, or not at all.
func Write(dir, kind, name string) error {
	files, err := Files(kind, name)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("%s exists already: give a new directory (--dir)", dir)
	} else if !os.IsNotExist(err) {
		return err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	tmp, err := os.MkdirTemp(parent, ".ringlab-new-*")
	if err != nil {
		return err
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if err = os.WriteFile(filepath.Join(tmp, f), files[f], 0o644); err != nil {
			break
		}
	}
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}
