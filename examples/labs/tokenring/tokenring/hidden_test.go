//go:build hidden

package tokenring_test

import (
	"testing"

	"example.com/ringlab-examples/labs/tokenring/tokenring"
	"ringlab/engine/enginetest"
)

// The teacher's hidden tests: every interleaving of three nodes, the
// keeper's timer firing at any moment (the asynchronous model: a timeout
// says nothing about the token). The autograder copies this file next to
// the student's and runs go test -tags hidden.

// TestHiddenOneToken: no message is lost, yet timeouts come early; a
// keeper that regenerates without proof makes a second token.
func TestHiddenOneToken(t *testing.T) {
	enginetest.Exhaust(t, tokenring.Algorithm(), params(t, 3, 1))
}

// TestHiddenLostToken: any one message may be lost, the token among them;
// every request must still be served (a run that ends with a node waiting
// is starvation), with never two tokens at once.
func TestHiddenLostToken(t *testing.T) {
	enginetest.ExhaustWith(t, tokenring.Algorithm(), params(t, 3, 1), enginetest.Options{Drops: 1})
}

// TestHiddenLostTokenTwoRequests is the same with two requests a node:
// the token lost after some nodes are finished.
func TestHiddenLostTokenTwoRequests(t *testing.T) {
	enginetest.ExhaustWith(t, tokenring.Algorithm(), params(t, 3, 2), enginetest.Options{Drops: 1})
}

// TestHiddenLiveness: nodes ask for ever, any one message may be lost;
// over every fair run without end, every request is served and
// eventually one token is left: a lost token that is never regenerated
// shows as a cycle where a node waits for ever (a lasso).
func TestHiddenLiveness(t *testing.T) {
	enginetest.ExhaustWith(t, tokenring.Algorithm(), params(t, 3, 0), enginetest.Options{Drops: 1, Liveness: true})
}
