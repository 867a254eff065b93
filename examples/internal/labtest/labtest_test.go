package labtest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"ringlab/engine/grade"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheckReportsEveryMiss: Check is silent when the results show what
// is wanted, and names each miss otherwise.
func TestCheckReportsEveryMiss(t *testing.T) {
	res := grade.Results{Tests: []grade.TestResult{
		{Name: "TestA", Status: "passed", Score: 2, MaxScore: 2, Visibility: "visible", Output: "ok"},
		{Name: "TestB", Status: "failed", Score: 0, MaxScore: 3, Visibility: "hidden", Output: "mutual exclusion violated\nRINGLAB_PATH=c1"},
	}}
	good := []Want{
		{Test: "TestA", Status: "passed", Visibility: "visible"},
		{Test: "TestB", Status: "failed", Visibility: "hidden", Output: []string{"mutual exclusion violated", "RINGLAB_PATH=c1"}},
	}
	r := &recorder{TB: t}
	Check(r, res, nil, good...)
	if len(r.errs) != 0 {
		t.Fatalf("Check reports %q on results that match", r.errs)
	}
	bad := []Want{
		{Test: "TestC", Status: "passed"},
		{Test: "TestA", Status: "failed", Visibility: "hidden"},
		{Test: "TestB", Status: "failed", Output: []string{"no progress"}},
	}
	r = &recorder{TB: t}
	Check(r, res, nil, bad...)
	want := []string{"TestC not graded", "TestA: passed, want failed", "TestA: visibility visible, want hidden", `TestB: no "no progress"`}
	if len(r.errs) != len(want) {
		t.Fatalf("Check reports %q, want %d errors", r.errs, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(r.errs[i], w) {
			t.Errorf("error %d is %q, want %q...", i, r.errs[i], w)
		}
	}
}

// TestPackagePathsInTheExamplesModule: the package's import path is found
// from the examples module's go.mod, wherever the grading test runs.
func TestPackagePathsInTheExamplesModule(t *testing.T) {
	dir, path := packagePaths(t, ".")
	if path != examplesModule+"/internal/labtest" {
		t.Errorf("import path %q", path)
	}
	if filepath.Base(dir) != "labtest" {
		t.Errorf("directory %q", dir)
	}
}
