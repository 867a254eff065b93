// Package mutants holds the lab's corpus of planted bugs (testdata/mutants.txt)
// and the test that plants each one: every mutant is a small source change a
// student could make to a shipped algorithm or to the node contract, applied
// with go build -overlay (the tree itself is never copied or changed), and
// the lab must catch it — a violation whose printed --path replays to the same
// exit 3, a vet finding, or a refusal with exit 2 — never exit 0. The same
// commands run on the unmutated binary must exit 0, which is what makes the
// corpus honest: a mutant is caught by the change it plants, not by a command
// that fails anyway.
//
// Run it with
//
//	go test ./internal/mutants/ -run TestMutants -v
//
// which prints the table the engine's README shows under "Planted bugs".
package mutants
