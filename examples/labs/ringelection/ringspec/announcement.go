package ringspec

import (
	"fmt"

	"ringlab/election/smallestid"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// IDAnnouncement names the announcement property.
const IDAnnouncement check.ID = "announcement"

// Announcement is the rules' termination argument as a property a search
// can refute on a finite path: the rules send at most sum(d_j + n)
// ELECTION and k*n ELECTED messages when k initiators start (d_j: the
// hops from initiator j to the smallest id), because each initiator's
// ELECTION travels to the smallest id, whose own id then goes round once
// (rule 4 fires once per initiator), and each ELECTED goes round once
// until rule 6 stops it at the leader. A node that sends one message more
// than that has broken a rule, and a run where an ELECTED goes round for
// ever breaks it after n more steps: it never ends, and no state where it
// ends exists to judge termination at.
//
// It is a check.Snapshot: the exhaustive checker carries the counts in
// every state and judges every step.
type Announcement struct {
	maxElection, maxElected int // the rules' counts, fixed
	n, k                    int // nodes and initiators, for the detail
	election, elected       int // sent so far
}

// NewAnnouncement returns the property for the ring ids started by the
// nodes starters (1-based indices).
func NewAnnouncement(ids, starters []int) *Announcement {
	e, l := smallestid.Messages(ids, starters)
	return &Announcement{maxElection: e, maxElected: l, n: len(ids), k: len(starters)}
}

// ID returns IDAnnouncement.
func (*Announcement) ID() check.ID { return IDAnnouncement }

// Wants is the sends.
func (*Announcement) Wants() trace.Kinds { return trace.KindsOf(trace.KindSend) }

// Observe counts a send and reports the first beyond the rules' count.
func (a *Announcement) Observe(e *trace.Event) string {
	if e.Kind != trace.KindSend || e.Msg == nil {
		return ""
	}
	switch e.Msg.Value.(type) {
	case Election:
		if a.election++; a.election == a.maxElection+1 {
			return fmt.Sprintf("node %d sent ELECTION number %d: the rules send at most sum(d_j + n) = %d with %d initiator(s)", e.Node, a.election, a.maxElection, a.k)
		}
	case Elected:
		if a.elected++; a.elected == a.maxElected+1 {
			return fmt.Sprintf("node %d sent ELECTED number %d: the rules send at most k*n = %d (k = %d initiator(s), n = %d), rule 6 stopping each at the leader", e.Node, a.elected, a.maxElected, a.k, a.n)
		}
	}
	return ""
}

// Finish holds when no send went beyond the rules' counts.
func (a *Announcement) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: string(IDAnnouncement), OK: a.election <= a.maxElection && a.elected <= a.maxElected,
		Detail: fmt.Sprintf("%d ELECTION (at most %d), %d ELECTED (at most %d)", a.election, a.maxElection, a.elected, a.maxElected)}
}

// Clone returns an independent copy (the exhaustive checker's snapshot).
func (a *Announcement) Clone() check.Snapshot { c := *a; return &c }

// AppendKey encodes the counts.
func (a *Announcement) AppendKey(b []byte) []byte {
	return node.AppendInt(node.AppendInt(b, a.election), a.elected)
}
