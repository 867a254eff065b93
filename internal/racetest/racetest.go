// Package racetest builds the ringlab binary with the race detector so tests
// can run the deliberately racy demos in a subprocess and read the
// detector's report. It is imported by tests only.
package racetest

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build compiles the ringlab main package with -race into a temporary
// directory and returns the binary's path. moduleRoot is the path from the
// calling test's package directory to the module root (e.g. "..").
func Build(t testing.TB, moduleRoot string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("building a -race binary takes tens of seconds; skipped with -short")
	}
	gobin, err := exec.LookPath("go") // go test puts its own GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("no go command on PATH to build the -race binary: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "ringlab-race")
	cmd := exec.Command(gobin, "build", "-race", "-o", bin, ".")
	cmd.Dir = moduleRoot
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build -race: %v\n%s", err, out.String())
	}
	return bin
}

// Result is one run of the race-built binary.
type Result struct {
	Stdout, Stderr string
	ExitCode       int
}

// Raced reports whether the detector printed a data-race warning.
func (r Result) Raced() bool { return bytes.Contains([]byte(r.Stderr), []byte("WARNING: DATA RACE")) }

// Run executes the binary with args and returns its output and exit code
// (66 is the race detector's exit code when it found a race).
func Run(t testing.TB, bin string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running %s %v: %v", bin, args, err)
		}
		code = ee.ExitCode()
	}
	return Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: code}
}
