//go:build hidden

package ricart_test

import (
	"testing"

	"example.com/ringlab-examples/assignment/ricart"
	"ringlab/engine/enginetest"
)

// The teacher's hidden tests: every interleaving of three nodes, each
// asking once, then twice. The autograder copies this file next to the
// student's and runs go test -tags hidden.

func TestHiddenExhaustOneRequest(t *testing.T) {
	enginetest.Exhaust(t, ricart.Algorithm(), params(t, 3, 1))
}

func TestHiddenExhaustTwoRequests(t *testing.T) {
	enginetest.Exhaust(t, ricart.Algorithm(), params(t, 3, 2))
}
