package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestExamplesModule runs the tests of the worked example, a module of
// its own (examples/go.mod) that the main module's ./... does not reach,
// so that `go test ./...` here covers it too: two-phase commit written
// against the public engine, its planted bug found, its README's output.
//
// CI (.ci/run) tests that module itself, with -race inside the tree and
// again from a copy outside it, before this package's tests, and sets
// RINGLAB_EXAMPLES_TESTED=1 so that this third run is left out there.
func TestExamplesModule(t *testing.T) {
	if os.Getenv("RINGLAB_EXAMPLES_TESTED") == "1" {
		t.Skip("RINGLAB_EXAMPLES_TESTED=1: .ci/run's examples steps tested the module (with -race, and from outside the tree)")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: run `go test ./...` in examples/ (the worked example's module)")
	}
	cmd := exec.CommandContext(t.Context(), gobin, "test", "./...")
	cmd.Dir = "examples"
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test ./... in examples: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok  \texample.com/ringlab-examples/twophase") {
		t.Fatalf("go test ./... in examples ran no twophase tests:\n%s", out)
	}
}
