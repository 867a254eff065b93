//go:build hidden

package ringelection_test

import (
	"testing"

	"example.com/ringlab-examples/labs/ringelection/ringelection"
	"ringlab/engine/enginetest"
)

// The teacher's hidden tests search every schedule of the specification's
// four rings; each grades some of the properties, so that a submission
// learns which promise it broke. The autograder copies this file next to
// the student's and runs go test -tags hidden.

// exhaust searches every schedule of each ring, started by initiators,
// judging the properties listed.
func exhaust(t *testing.T, initiators, properties string) {
	for _, r := range rings {
		t.Run(r.name, func(t *testing.T) {
			enginetest.Exhaust(t, ringelection.Algorithm(), params(t, r.ids, initiators, properties))
		})
	}
}

// TestHiddenTranscript: started by node 1, every node prints the
// specification's lines, in its order.
func TestHiddenTranscript(t *testing.T) { exhaust(t, "1", "transcript") }

// TestHiddenOneLeader: every node starting, at most one node ever takes
// itself as leader, and every leader taken is the smallest id.
func TestHiddenOneLeader(t *testing.T) { exhaust(t, "all", "uniqueness,correctness") }

// TestHiddenEveryoneLearns: every node starting, every node ends knowing
// the same leader.
func TestHiddenEveryoneLearns(t *testing.T) { exhaust(t, "all", "agreement") }

// TestHiddenTermination: every node starting, every run ends with a
// leader, and no node sends more ELECTION or ELECTED messages than the
// rules do (an announcement that goes round for ever breaks it).
func TestHiddenTermination(t *testing.T) { exhaust(t, "all", "termination,announcement") }
