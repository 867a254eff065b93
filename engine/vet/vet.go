// PLACEHOLDER: replaced by the vet branch at merge.

// Package vet lints an algorithm: it stands in here so that code written
// against it compiles before the real package arrives.
package vet

import (
	"context"
	"testing"

	"ringlab/engine"
)

// Finding is one thing the lint found wrong with an algorithm.
type Finding struct{}

// Check lints alg at parameters p; this stand-in finds nothing.
func Check(ctx context.Context, alg engine.Algorithm, p engine.Params) ([]Finding, error) {
	return nil, nil
}

// Test fails t for every finding of Check; this stand-in finds nothing.
func Test(t testing.TB, alg engine.Algorithm, p engine.Params) {
	t.Helper()
}
