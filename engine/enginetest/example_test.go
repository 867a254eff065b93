package enginetest_test

import (
	"context"
	"fmt"
	"testing"

	"ringlab/engine/enginetest"
)

// printer is a testing.TB that prints what a helper reports, standing in
// for the *testing.T of a test named TestRelay.
type printer struct{ testing.TB }

func (printer) Helper()                        {}
func (printer) Name() string                   { return "TestRelay" }
func (printer) Context() context.Context       { return context.Background() }
func (printer) Errorf(format string, a ...any) { fmt.Printf(format+"\n", a...) }
func (printer) Logf(format string, a ...any)   { fmt.Printf(format+"\n", a...) }

// A test of a token relay whose last node enters the critical section
// without the token: Sweep finds two nodes inside at once under the first
// seed and says how to replay that run.
func ExampleSweep() {
	greedy := params(map[string]any{"greedy": true})
	enginetest.Sweep(printer{}, relayAlgorithm(), greedy, 20)
	// Output:
	// relay, seed 1 of 1..20: mutual exclusion violated: node 2 and node 3 are in the critical section at once (t=9)
	// replay (prints the run): RINGLAB_SEED=1 go test -run '^TestRelay$' ./engine/enginetest
}

// Exhaust searches every state of the correct relay, and logs what it
// searched.
func ExampleExhaust() {
	enginetest.Exhaust(printer{}, relayAlgorithm(), params(nil))
	// Output:
	// relay: exhausted, no violation: 6 distinct states, 1 terminal, depth 5
}
