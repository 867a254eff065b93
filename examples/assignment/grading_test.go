package assignment_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ringlab/engine/grade"
)

// submission grades one ricart.go (the skeleton's or the solution's) as
// the autograder does: the file goes into a package of its own beside the
// visible and the hidden tests, in a module of its own that finds this one
// and ringlab where they are; go test -json -tags hidden runs it, and the
// stream is graded by the points file. It returns the results and the
// results.json written.
func submission(t *testing.T, ricartGo string) (grade.Results, []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("grading runs go test in a module of its own: not in -short")
	}
	examples, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Dir(examples)
	dir := t.TempDir()
	mod, err := os.ReadFile(filepath.Join(examples, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := strings.Replace(string(mod), "module example.com/ringlab-examples", "module grading", 1)
	gomod = strings.Replace(gomod, "replace ringlab => ../", "replace ringlab => "+repo, 1)
	gomod += "\nrequire example.com/ringlab-examples v0.0.0\n\nreplace example.com/ringlab-examples => " + examples + "\n"
	copyFile(t, filepath.Join(examples, "go.sum"), filepath.Join(dir, "go.sum"))
	write(t, filepath.Join(dir, "go.mod"), gomod)
	pkg := filepath.Join(dir, "ricart")
	copyFile(t, ricartGo, filepath.Join(pkg, "ricart.go"))
	for _, f := range []string{"ricart_test.go", "hidden_test.go"} {
		b, err := os.ReadFile(filepath.Join("ricart", f))
		if err != nil {
			t.Fatal(err)
		}
		// the tests import the package under test by its path in this module
		write(t, filepath.Join(pkg, f), strings.ReplaceAll(string(b), `"example.com/ringlab-examples/assignment/ricart"`, `"grading/ricart"`))
	}

	cmd := exec.Command("go", "test", "-json", "-tags", "hidden", "./ricart")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off", "RINGLAB_SEED=", "RINGLAB_PATH=")
	cmd.Env = unset(cmd.Env, "RINGLAB_SEED", "RINGLAB_PATH")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("go test: %v\n%s", err, stderr.String())
		}
	}
	pf, err := os.Open("points")
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	points, err := grade.ParsePoints(pf)
	if err != nil {
		t.Fatal(err)
	}
	s, err := grade.ReadStream(&stdout)
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	res := grade.Grade(s, points)
	var b bytes.Buffer
	if err := res.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := grade.Validate(b.Bytes()); err != nil {
		t.Fatalf("results.json does not match Gradescope's fields: %v\n%s", err, b.String())
	}
	write(t, filepath.Join(t.TempDir(), "results.json"), b.String())
	return res, b.Bytes()
}

// unset drops the variables named from env.
func unset(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			keep = keep && k != n
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(b))
}

// byName indexes the graded tests.
func byName(res grade.Results) map[string]grade.TestResult {
	m := map[string]grade.TestResult{}
	for _, tr := range res.Tests {
		m[tr.Name] = tr
	}
	return m
}

// TestTheSolutionScoresEverything: the reference solution passes every
// visible and hidden test, for full marks.
func TestTheSolutionScoresEverything(t *testing.T) {
	res, b := submission(t, filepath.Join("ricart", "ricart.go"))
	if res.Score != 10 {
		t.Fatalf("the solution scores %v of 10:\n%s", res.Score, b)
	}
	for _, tr := range res.Tests {
		if tr.Status != "passed" {
			t.Errorf("%s: %s\n%s", tr.Name, tr.Status, tr.Output)
		}
	}
}

// TestTheSkeletonFailsAsExpected: the skeleton compiles, and fails the
// way a student expects: no node ever enters, so the visible sweeps
// report no progress with a seed to replay, and the hidden searches a
// shortest path where requests wait for ever, with the replay command.
func TestTheSkeletonFailsAsExpected(t *testing.T) {
	res, b := submission(t, filepath.Join("testdata", "skeleton", "ricart.go"))
	tests := byName(res)
	for _, c := range []struct {
		name       string
		visibility string
		want       []string
	}{
		{"TestSweepOneRequest", "visible", []string{"ricart-agrawala, seed 1 of 1..200: no progress: no deadlock violated: node 1, node 2 and node 3 still waiting for the critical section at t=11 and nobody is in it",
			"replay (prints the run): RINGLAB_SEED=1 go test -run '^TestSweepOneRequest$' ./ricart"}},
		{"TestSweepTwoRequests", "visible", []string{"no progress: no deadlock violated", "RINGLAB_SEED=1 go test -run '^TestSweepTwoRequests$' ./ricart"}},
		{"TestHiddenExhaustOneRequest", "hidden", []string{"ricart-agrawala: no deadlock violated after ", "(a shortest path): node 1, node 2 and node 3 still waiting",
			"path: c1,", "replay (prints the run): RINGLAB_PATH=c1,", " go test -run '^TestHiddenExhaustOneRequest$' ./ricart", "the path in words:", "send  REQUEST"}},
		{"TestHiddenExhaustTwoRequests", "hidden", []string{"no deadlock violated after ", "RINGLAB_PATH=c1,"}},
	} {
		tr, ok := tests[c.name]
		if !ok {
			t.Fatalf("%s not graded:\n%s", c.name, b)
		}
		if tr.Status != "failed" || tr.Score != 0 || tr.Visibility != c.visibility {
			t.Errorf("%s: %s %v/%v %s, want failed 0 %s", c.name, tr.Status, tr.Score, tr.MaxScore, tr.Visibility, c.visibility)
		}
		for _, w := range c.want {
			if !strings.Contains(tr.Output, w) {
				t.Errorf("%s: no %q in its output:\n%s", c.name, w, tr.Output)
			}
		}
	}
	if res.Score > 1 { // at most TestVet's point: the lint may pass a skeleton that does nothing
		t.Errorf("the skeleton scores %v:\n%s", res.Score, b)
	}
}

// TestABuggySubmissionGetsACounterexample: a submission whose WANTED node
// replies to a later request (it forgets the timestamps) passes the
// sweeps it happens to, and the hidden search finds two nodes inside at
// once, with the shortest path and its replay.
func TestABuggySubmissionGetsACounterexample(t *testing.T) {
	res, b := submission(t, filepath.Join("testdata", "buggy", "ricart.go"))
	tests := byName(res)
	for _, name := range []string{"TestHiddenExhaustOneRequest", "TestHiddenExhaustTwoRequests"} {
		tr := tests[name]
		for _, w := range []string{"ricart-agrawala: mutual exclusion violated after ", "(a shortest path): ",
			"are in the critical section at once", "path: c1,", "RINGLAB_PATH=c1,", "go test -run '^" + name + "$' ./ricart", "ENTER critical section"} {
			if !strings.Contains(tr.Output, w) {
				t.Errorf("%s: no %q in its output:\n%s", name, w, tr.Output)
			}
		}
		if tr.Status != "failed" {
			t.Errorf("%s: %s", name, tr.Status)
		}
	}
	if res.Score >= 10 {
		t.Errorf("the buggy submission scores %v:\n%s", res.Score, b)
	}
}
