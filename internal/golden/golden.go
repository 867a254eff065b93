// Package golden compares a test's output with a golden file in testdata/,
// the transcript tests of etcd-io/raft's kind: with update set (each test
// package's -update flag) it rewrites the file instead.
package golden

import (
	"os"
	"testing"
)

// Check compares got with the file at path. With update it writes got
// there; a missing file fails the test with how to create it.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", path, got)
	}
}
