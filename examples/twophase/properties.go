package twophase

import (
	"fmt"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// Atomicity is the property that no node commits while another aborts.
// It reads the states the nodes announce; as a check.Snapshot the
// exhaustive checker judges it at every state.
type Atomicity struct {
	check.Names        // the nodes' names, which the runner sets
	committed, aborted check.NodeSet
}

// ID names the property.
func (*Atomicity) ID() check.ID { return "atomicity" }

// Wants is the state events only.
func (*Atomicity) Wants() trace.Kinds { return trace.KindsOf(trace.KindState) }

// Observe reports the first event after which one node has committed and
// another aborted.
func (a *Atomicity) Observe(e *trace.Event) string {
	switch e.State {
	case StateCommitted:
		a.committed.Add(e.Node)
	case StateAborted:
		a.aborted.Add(e.Node)
	default:
		return ""
	}
	if len(a.committed) > 0 && len(a.aborted) > 0 {
		return fmt.Sprintf("%s committed and %s aborted", a.Name(a.committed[0]), a.Name(a.aborted[0]))
	}
	return ""
}

// Finish is the verdict.
func (a *Atomicity) Finish(check.End) trace.Verdict {
	return trace.Verdict{Property: "atomicity", OK: len(a.committed) == 0 || len(a.aborted) == 0}
}

// Clone copies the sets.
func (a *Atomicity) Clone() check.Snapshot {
	return &Atomicity{Names: a.Names, committed: append(check.NodeSet(nil), a.committed...), aborted: append(check.NodeSet(nil), a.aborted...)}
}

// AppendKey keys the sets.
func (a *Atomicity) AppendKey(b []byte) []byte { return a.aborted.AppendKey(a.committed.AppendKey(b)) }

// Validity is the property that a commit comes only if every participant
// voted yes. A no vote and a commit anywhere are a violation, whatever
// their order; a run that ends with a commit is judged at its end for the
// participants that never voted yes (crashed first, say).
type Validity struct {
	check.Names  // the nodes' names, which the runner sets
	Participants int
	yes, no      check.NodeSet
	committed    check.NodeSet
}

// ID names the property.
func (*Validity) ID() check.ID { return "validity" }

// Wants is the state events only.
func (*Validity) Wants() trace.Kinds { return trace.KindsOf(trace.KindState) }

// Observe reports the first event after which a commit and a no vote
// have both happened.
func (v *Validity) Observe(e *trace.Event) string {
	switch e.State {
	case StateVotedYes:
		v.yes.Add(e.Node)
	case StateVotedNo:
		v.no.Add(e.Node)
	case StateCommitted:
		v.committed.Add(e.Node)
	default:
		return ""
	}
	if len(v.committed) > 0 && len(v.no) > 0 {
		return fmt.Sprintf("%s committed though %s voted no", v.Name(v.committed[0]), v.Name(v.no[0]))
	}
	return ""
}

// Finish is the verdict: a commit needs every participant's yes.
func (v *Validity) Finish(check.End) trace.Verdict {
	if len(v.committed) > 0 && len(v.yes) < v.Participants {
		return trace.Verdict{Property: "validity", Detail: fmt.Sprintf("%s committed with %d of %d yes votes",
			v.Name(v.committed[0]), len(v.yes), v.Participants)}
	}
	return trace.Verdict{Property: "validity", OK: true}
}

// Clone copies the sets.
func (v *Validity) Clone() check.Snapshot {
	c := *v
	c.yes, c.no = append(check.NodeSet(nil), v.yes...), append(check.NodeSet(nil), v.no...)
	c.committed = append(check.NodeSet(nil), v.committed...)
	return &c
}

// AppendKey keys the sets.
func (v *Validity) AppendKey(b []byte) []byte {
	return v.committed.AppendKey(v.no.AppendKey(v.yes.AppendKey(b)))
}
