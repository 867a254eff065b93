//go:build hidden

package bully_test

import (
	"testing"

	"example.com/ringlab-examples/labs/bully/bully"
	"ringlab/engine/enginetest"
)

// The teacher's hidden tests: every schedule, timers firing only once
// every message sent before has arrived (timeouts longer than a round
// trip: enginetest.Options.QuietTimers). The autograder copies this file
// next to the student's and runs go test -tags hidden.

// quiet is the timer model of every hidden test. It lets any pending timer
// fire first where real timeouts would not (node 1's coordinator timeout
// again and again before node 3's shorter reply timeout): its runs that
// never end are not the real system's, so agreement and termination are
// judged on the runs that end (EndedRunsOnly), and the log says what was
// left.
var quiet = enginetest.Options{QuietTimers: true, EndedRunsOnly: true}

// TestHiddenAllAlive: four nodes, all alive, node 1 suspecting the
// leader: one leader, node 4, whom every node follows.
func TestHiddenAllAlive(t *testing.T) {
	enginetest.ExhaustWith(t, bully.Algorithm(), params(t, 4, 0, "1"), quiet)
}

// TestHiddenLeaderDown: the old leader 4 is down, 1 and 2 suspect it:
// node 3 hears no OK and must time out to win.
func TestHiddenLeaderDown(t *testing.T) {
	enginetest.ExhaustWith(t, bully.Algorithm(), params(t, 4, 4, "1,2"), quiet)
}

// TestHiddenCrashAnywhere: the old leader 4 is down, 1 and 2 suspect it,
// and any one more node may crash at any point: a node that got an OK
// from a node that then died must time out waiting for its COORD and
// start again, and no node may declare while a higher one lives.
func TestHiddenCrashAnywhere(t *testing.T) {
	o := quiet
	o.Crashes = 1
	enginetest.ExhaustWith(t, bully.Algorithm(), params(t, 4, 4, "1,2"), o)
}
