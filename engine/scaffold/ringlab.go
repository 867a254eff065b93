package scaffold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Ringlab is the checkout of ringlab that a new module builds against.
// ringlab is not a published module (its path, "ringlab", has no domain),
// so no proxy serves it: a new module's go.mod replaces it with this
// directory, and requires the modules ringlab requires at ringlab's own
// versions, whose go.sum lines it copies. The go command then finds
// everything in the module cache the checkout's own build filled, offline.
type Ringlab struct {
	Dir      string   // the checkout: the absolute directory of ringlab's go.mod
	Go       string   // the Go version its go.mod states, such as "1.26.0"
	Requires []string // every module its go.mod requires, as "PATH VERSION"
	Sum      []byte   // its go.sum
}

// errNoCheckout says why FindRinglab("") cannot find the checkout.
var errNoCheckout = errors.New("cannot find the ringlab checkout this program was built from (it was built with -trimpath, or the checkout moved): give --ringlab DIR, the directory of ringlab's go.mod")

// FindRinglab reads the ringlab checkout in dir, or, when dir is "", the
// checkout this program was built from: the directory its own source
// files were compiled from, which the binary records unless it was built
// with -trimpath. It is an error if that directory holds no go.mod of the
// module ringlab.
func FindRinglab(dir string) (Ringlab, error) {
	if dir == "" {
		_, file, _, ok := runtime.Caller(0)
		if !ok || !filepath.IsAbs(file) {
			return Ringlab{}, errNoCheckout
		}
		dir = filepath.Join(filepath.Dir(file), "..", "..")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return Ringlab{}, errNoCheckout
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Ringlab{}, err
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return Ringlab{}, fmt.Errorf("%s is not a ringlab checkout: %w", dir, err)
	}
	r := Ringlab{Dir: dir}
	path, err := r.parseGoMod(mod)
	if err != nil {
		return Ringlab{}, fmt.Errorf("%s: %w", filepath.Join(dir, "go.mod"), err)
	}
	if path != "ringlab" {
		return Ringlab{}, fmt.Errorf("%s is the module %q, not ringlab: give --ringlab the directory of ringlab's go.mod", dir, path)
	}
	if r.Sum, err = os.ReadFile(filepath.Join(dir, "go.sum")); err != nil && len(r.Requires) > 0 {
		return Ringlab{}, fmt.Errorf("%s requires modules but has no go.sum: %w", dir, err)
	}
	return r, nil
}

// parseGoMod reads the module path, the go version and the requirements
// of a go.mod file into r, and returns the module path. It reads what the
// go command writes (directives one to a line, or in a block "VERB (" ...
// ")"), and skips the directives a new module does not copy.
func (r *Ringlab) parseGoMod(mod []byte) (string, error) {
	var path, block string
	for i, line := range strings.Split(string(mod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		verb := block
		switch {
		case len(f) == 0:
			continue
		case block != "" && len(f) == 1 && f[0] == ")":
			block = ""
			continue
		case block != "": // an entry of the block
		case len(f) == 2 && f[1] == "(":
			block = f[0]
			continue
		default:
			verb, f = f[0], f[1:]
		}
		if err := r.directive(verb, f, &path); err != nil {
			return "", fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	if path == "" {
		return "", errors.New("no module directive")
	}
	return path, nil
}

// directive reads one directive of a go.mod file, its verb and its
// arguments, into r and path.
func (r *Ringlab) directive(verb string, args []string, path *string) error {
	want := map[string]int{"module": 1, "go": 1, "require": 2}[verb]
	if want == 0 {
		return nil // toolchain, replace, exclude, ...: not copied
	}
	if len(args) != want {
		return fmt.Errorf("%s wants %d arguments, got %d", verb, want, len(args))
	}
	for _, a := range args {
		if strings.ContainsAny(a, "\"`'") {
			return fmt.Errorf("%s %s: a quoted argument (not read)", verb, a)
		}
	}
	switch verb {
	case "module":
		*path = args[0]
	case "go":
		r.Go = args[0]
	case "require":
		r.Requires = append(r.Requires, args[0]+" "+args[1])
	}
	return nil
}
