package main

import (
	"os"
	"path/filepath"
	"testing"

	"ringlab/engine/vet"
)

// algorithmDirs are the algorithm packages of the areas: one folder each
// under mutex/ and election/, beside the areas' internal/ helpers and the
// mutual-exclusion kit (mutex/kit: the workload and the properties, no
// node; its workload draws the first request ticks from a fixed seed).
func algorithmDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, area := range []string{"mutex", "election"} {
		entries, err := os.ReadDir(area)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() && e.Name() != "internal" && e.Name() != "testdata" && e.Name() != "kit" {
				dirs = append(dirs, filepath.Join(area, e.Name()))
			}
		}
	}
	return dirs
}

// No algorithm reads Output.Now, the wall clock, a random source or the
// process's environment: its Step must depend on its state and its input
// alone. The exhaustive checker takes two states with equal keys for one
// state, and the simulator replays a seed bit for bit, only because of it;
// every algorithm's timeouts are timers (InTick) instead. The check is
// vet's clock check, run here on every algorithm package whether or not
// a test builds it.
func TestAlgorithmsReadNoClock(t *testing.T) {
	dirs := algorithmDirs(t)
	if len(dirs) < 13 {
		t.Fatalf("found %d algorithm packages (%v), want the 13 of mutex/ and election/", len(dirs), dirs)
	}
	for _, dir := range dirs {
		fs, err := vet.Source(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			t.Error(f)
		}
	}
}
