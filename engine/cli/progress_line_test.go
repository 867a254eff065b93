package cli

import (
	"testing"
	"time"

	"ringlab/engine/statespace"
)

// The progress line names the bounds a search was given and, for the
// memory bound, when it comes at the pace so far.
func TestProgressLine(t *testing.T) {
	p := statespace.Progress{Distinct: 1000, Elapsed: 10 * time.Second, Frontier: 50, Depth: 7, Heap: 100 << 20}
	if got, want := progressLine(p, statespace.Config{}), "depth 7, frontier 50, 100 states/s, memory 100 MiB:"; got != want {
		t.Errorf("no bounds: %q, want %q", got, want)
	}
	got := progressLine(p, statespace.Config{MaxDepth: 20, MaxMemory: 400 << 20})
	if want := "depth 7 of 20, frontier 50, 100 states/s, memory 100 MiB of 400 (reached in about 30s at this pace):"; got != want {
		t.Errorf("bounds: %q, want %q", got, want)
	}
}
