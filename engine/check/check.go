// Package check holds ringlab's properties, written once and judged by
// every tool. A property watches the event stream as it happens (Observe)
// and reports a violation at the event that breaks it; at the end of a run
// (Finish) it gives its verdict. The same properties are judged at each
// event of a run on any runtime, over a saved NDJSON log (Log), at every
// step of the random explorer and, those that are a Snapshot, at every
// state of the exhaustive checker (the others where its paths end).
package check

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"ringlab/engine/trace"
)

// End is what a property learns when the run is over.
type End struct {
	Terminated bool   // the run ended by itself (quiescent or every node done)
	Why        string // why it did not, if it did not
	Messages   int64  // messages the run sent
	Runtime    string // "live": times are nanoseconds
	// Cut marks a run that stops where a path the exhaustive checker
	// chose stops (a path, or one turn of a lasso) rather than where the
	// run ends: a property judged only where a run ends is not reached
	// (trace.Verdict.NotReached), and Why says why.
	Cut bool
	// Refutes, on a lasso, is the property whose promise its cycle
	// leaves owed for ever, and Refuted says so in words (the nodes
	// starved): its verdict, where one turn of the cycle ends.
	Refutes ID
	Refuted string
	// RefutesOwed, on a lasso whose property is not known, refutes every
	// check.Eventually property whose promise is owed where the turn ends.
	RefutesOwed bool
}

// Time writes a time of the run: ticks as a number, a live run's
// nanoseconds in a readable unit.
func (e End) Time(t int64) string {
	h := trace.Header{Runtime: e.Runtime}
	return h.FormatTime(t)
}

// ID names a property: the name written in violations and verdicts, lower
// case, words separated by one space ("mutual exclusion"). Code compares
// IDs; a user's spelling becomes one through PropertyName.
type ID string

// The IDs of the properties of this package.
const (
	IDMutualExclusion ID = "mutual exclusion"
	IDTermination     ID = "termination"
	IDMessageBound    ID = "message bound"
)

// Property is one property of a run.
type Property interface {
	// ID is the name written in violations and verdicts.
	ID() ID
	// Observe sees every event in order and returns a description of the
	// violation this event causes, or "".
	Observe(e *trace.Event) string
	// Finish returns the verdict once the run is over.
	Finish(end End) trace.Verdict
}

// Wanter is a Property that needs only some kinds of events. A property
// that is not one is shown every kind.
type Wanter interface {
	// Wants returns the kinds of events Observe must see; a runtime may
	// leave the others unbuilt.
	Wants() trace.Kinds
}

// Set runs several properties over one stream and remembers the violations.
type Set struct {
	Properties []Property    // the properties judged, in order
	Violations []trace.Event // every violation event Observe returned, in order
	violated   map[ID]bool
}

// NewSet returns a set of properties.
func NewSet(ps ...Property) *Set { return &Set{Properties: ps, violated: map[ID]bool{}} }

// Observe feeds one event to every property and returns the violation events
// it caused (to be logged right after e).
func (s *Set) Observe(e *trace.Event) []trace.Event {
	var out []trace.Event
	for _, c := range s.Properties {
		if d := c.Observe(e); d != "" {
			v := trace.Event{V: trace.Version, T: e.T, Node: e.Node, Kind: trace.KindViolation, Property: string(c.ID()), Detail: d, LC: e.LC}
			out = append(out, v)
			s.Violations = append(s.Violations, v)
			s.violated[c.ID()] = true
		}
	}
	return out
}

// ClockWanter is a Property that judges better with vector clocks on the
// events (happens-before instead of the order events were seen in); a
// runtime that can give them then does.
type ClockWanter interface {
	// WantsClocks reports whether the property asks for vector clocks.
	WantsClocks() bool
}

// WantsClocks reports whether a property of the set wants vector clocks.
func (s *Set) WantsClocks() bool {
	for _, c := range s.Properties {
		if w, ok := c.(ClockWanter); ok && w.WantsClocks() {
			return true
		}
	}
	return false
}

// Wants is the union of the kinds its properties need: a runtime may skip
// the others when nothing else (a renderer, a log) wants them.
func (s *Set) Wants() trace.Kinds {
	var k trace.Kinds
	for _, c := range s.Properties {
		if w, ok := c.(Wanter); ok {
			k |= w.Wants()
		} else {
			k = trace.AllKinds
		}
	}
	return k
}

// Violated reports whether any property has found a violation so far.
func (s *Set) Violated() bool { return len(s.Violations) > 0 }

// Finish collects the verdicts: the verdicts of the state the run (or the
// path) reached, which every tool shows, a trace's lines as the checker's
// page. A property that was violated during the run fails even if its
// end-of-run check would pass. On a path cut short (end.Cut), a property
// judged only where a run ends is not reached, unless an event along the
// path violated it; a property judged at every state (a Snapshot, or a
// Counter, which never fails) is judged as far as the path goes. On a
// lasso, the property its cycle refutes (end.Refutes) fails.
func (s *Set) Finish(end End) []trace.Verdict {
	vs := make([]trace.Verdict, 0, len(s.Properties))
	for _, c := range s.Properties {
		id := c.ID()
		v := c.Finish(end)
		_, everyState := c.(Snapshot)
		if _, counts := c.(Counter); counts {
			everyState = true
		}
		switch {
		case s.violated[id] && (v.OK || v.Detail == "" || end.Cut && !everyState):
			v.OK, v.Detail = false, s.first(id)
		case s.violated[id]:
		case end.Refutes == id && id != "":
			v.OK = false
			if end.Refuted != "" {
				v.Detail = end.Refuted
			}
		case end.RefutesOwed && !v.OK && isEventually(c):
		case end.Cut && !everyState:
			v = trace.Verdict{Property: string(id), NotReached: true, Detail: end.Why}
		}
		vs = append(vs, v)
	}
	return vs
}

func isEventually(p Property) bool { _, ok := p.(Eventually); return ok }

// first is the detail of the first violation of property id.
func (s *Set) first(id ID) string {
	for _, e := range s.Violations {
		if ID(e.Property) == id {
			return e.Detail
		}
	}
	return ""
}

// Log judges properties over a saved NDJSON log and returns the violations and
// verdicts, with the summary line read from the log.
func Log(r io.Reader, cs ...Property) (*Set, []trace.Verdict, *trace.Summary, error) {
	set := NewSet(cs...)
	var sum *trace.Summary
	err := trace.Read(r, func(e *trace.Event) error {
		if e.Kind != trace.KindViolation {
			set.Observe(e)
		}
		return nil
	}, func(s *trace.Summary) error { sum = s; return nil })
	if err != nil {
		return nil, nil, nil, err
	}
	end := End{Terminated: true}
	if sum != nil {
		end.Messages = sum.Messages
		for _, v := range sum.Verdicts {
			if ID(v.Property) == IDTermination && !v.OK {
				end.Terminated, end.Why = false, v.Detail
			}
		}
	}
	return set, set.Finish(end), sum, nil
}

// MutualExclusion is the property that never two live nodes are in the
// critical section at once (events enter_cs and exit_cs). A
// node that crashes inside the CS leaves it (it is dead, not using the
// resource).
//
// What "at once" means depends on what the events carry. Without vector
// clocks (the simulator's default) it is the order of the events: one
// global virtual time, so two nodes between enter_cs and exit_cs at the
// same time. With vector clocks (the live runtime, or the simulator with
// --vc) it is causality: every entry must happen after (→, Lamport's
// happens-before) the last exit of every other node, so two critical
// sections not ordered by messages are flagged even when, on this run's
// clock, one ended before the other began: on another run they overlap.
//
// Its state is the set of nodes inside (a sorted small slice) and, only
// for runs whose events carry clocks, each node's last exit clock: a
// Snapshot the exhaustive checker carries in every state.
type MutualExclusion struct {
	Names
	Times
	in       NodeSet
	worst    int
	first    string           // the first violation, for the verdict
	lastExit map[int][]uint32 // each node's last exit_cs clock, while it is alive
	causal   bool             // the events carried vector clocks
}

// ID returns IDMutualExclusion.
func (*MutualExclusion) ID() ID { return IDMutualExclusion }

// Wants returns the kinds that move a node in or out of the critical
// section: enter_cs, exit_cs, crash and recover.
func (*MutualExclusion) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindEnterCS, trace.KindExitCS, trace.KindCrash, trace.KindRecover)
}

// WantsClocks says the property judges by happens-before when it can.
func (*MutualExclusion) WantsClocks() bool { return true }

// Observe returns a description of the violation e causes: a second
// node inside at once or, when events carry vector clocks, an entry not
// ordered after another node's last exit.
func (m *MutualExclusion) Observe(e *trace.Event) string {
	d := m.observe(e)
	if d != "" && m.first == "" {
		m.first = d
	}
	return d
}

func (m *MutualExclusion) observe(e *trace.Event) string {
	switch e.Kind {
	case trace.KindEnterCS:
		m.in.Add(e.Node)
		if len(m.in) > 1 {
			m.worst = max(m.worst, len(m.in))
			return fmt.Sprintf("%s are in the critical section at once (t=%s)", m.List(m.in), m.Time(e.T))
		}
		if e.VC == nil {
			return ""
		}
		m.causal = true
		for _, i := range sortedKeys(m.lastExit) {
			if i != e.Node && !happensBefore(m.lastExit[i], e.VC) {
				m.worst = max(m.worst, 2)
				return fmt.Sprintf("the critical sections of %s and %s are not ordered by happens-before: "+
					"%s's exit (vc %v) does not happen before %s's entry (vc %v, t=%s)",
					m.Name(i), m.Name(e.Node), m.Name(i), m.lastExit[i], m.Name(e.Node), e.VC, m.Time(e.T))
			}
		}
	case trace.KindExitCS:
		m.in.Remove(e.Node)
		if e.VC != nil {
			if m.lastExit == nil {
				m.lastExit = map[int][]uint32{}
			}
			m.lastExit[e.Node] = slices.Clone(e.VC)
		}
	case trace.KindCrash, trace.KindRecover:
		// A dead node holds nothing, and nothing can be ordered after it.
		m.in.Remove(e.Node)
		delete(m.lastExit, e.Node)
	}
	return ""
}

// Clone returns an independent copy (the exhaustive checker's snapshot).
func (m *MutualExclusion) Clone() Snapshot {
	c := *m
	c.in = slices.Clone(m.in)
	if m.lastExit != nil {
		c.lastExit = make(map[int][]uint32, len(m.lastExit))
		for i, vc := range m.lastExit {
			c.lastExit[i] = slices.Clone(vc)
		}
	}
	return &c
}

// RenameNodes implements NodeRenamer for the exhaustive checker's
// symmetry reduction: the nodes inside and the exit clocks' owners are
// renamed (the clocks' components, by node, too).
func (m *MutualExclusion) RenameNodes(perm []int) {
	m.in = slices.Clone(m.in)
	m.in.RenameNodes(perm)
	if m.lastExit == nil {
		return
	}
	le := make(map[int][]uint32, len(m.lastExit))
	for i, vc := range m.lastExit {
		r := make([]uint32, len(vc))
		for k, c := range vc {
			if k+1 < len(perm) {
				r[perm[k+1]-1] = c
			}
		}
		le[perm[i]] = r
	}
	m.lastExit = le
}

// AppendKey encodes what Observe depends on: the nodes inside and the last
// exit clocks (none in the exhaustive checker, whose events carry no
// clocks). worst only shapes the verdict, which is judged where a path ends.
func (m *MutualExclusion) AppendKey(b []byte) []byte {
	b = binary.AppendUvarint(m.in.AppendKey(b), uint64(len(m.lastExit)))
	for _, i := range sortedKeys(m.lastExit) {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(i)), uint64(len(m.lastExit[i])))
		for _, c := range m.lastExit[i] {
			b = binary.AppendUvarint(b, uint64(c))
		}
	}
	return b
}

// happensBefore reports whether the event with clock a happens before (or
// is) the event with clock b: a <= b in every component.
func happensBefore(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] > b[k] {
			return false
		}
	}
	return true
}

// Finish returns the verdict: OK unless Observe ever reported a
// violation, whose first description is the detail.
func (m *MutualExclusion) Finish(End) trace.Verdict {
	v := trace.Verdict{Property: string(m.ID()), OK: m.worst < 2}
	switch {
	case v.OK && m.causal:
		v.Detail = "every two critical sections ordered by happens-before (vector clocks)"
	case v.OK:
		v.Detail = "never two nodes inside at once, in the order the events happened"
	default:
		v.Detail = m.first
	}
	return v
}

// Termination is the property that the run ended by itself within its
// budget (End.Terminated). A run judges it at its end; the exhaustive
// checker also judges it over cycles, as the promise (Eventually) that the
// run ends: a fair cycle is a run that never does. A workload meant to run
// for ever (engine.System.Endless) asks for no termination.
type Termination struct{}

// Promise is the promise that the run ends, made to the run as a whole
// and kept by no event: it stays owed on every cycle.
func (Termination) Promise() Promise { return runEnds{} }

// runEnds is Termination's promise (check.Whole). It has no state.
type runEnds struct{}

func (runEnds) Observe(*trace.Event) uint64 { return 0 }
func (runEnds) Owed() uint64                { return 1 }
func (runEnds) Wants() trace.Kinds          { return 0 }
func (r runEnds) Clone() Promise            { return r }
func (runEnds) AppendKey(b []byte) []byte   { return b }
func (runEnds) Unmet() string               { return "the run goes on without ending" }

// ID returns IDTermination.
func (Termination) ID() ID { return IDTermination }

// Observe reports nothing: termination is judged at the end.
func (Termination) Observe(*trace.Event) string { return "" }

// Wants returns no kinds: Termination reads no event.
func (Termination) Wants() trace.Kinds { return 0 }

// Finish returns OK if end.Terminated, else the reason end.Why.
func (Termination) Finish(end End) trace.Verdict {
	return trace.Verdict{Property: string(IDTermination), OK: end.Terminated, Detail: end.Why}
}

// MessageBound is the property that the run sent at most Max messages
// (End.Messages). It is judged only at the end.
type MessageBound struct {
	Max     int64  // the most messages allowed
	Formula string // where Max comes from, for the verdict: "n(n+1)/2 + n"
}

// ID returns IDMessageBound.
func (MessageBound) ID() ID { return IDMessageBound }

// Observe reports nothing: the bound is judged at the end.
func (MessageBound) Observe(*trace.Event) string { return "" }

// Wants returns no kinds: MessageBound reads the count in End.
func (MessageBound) Wants() trace.Kinds { return 0 }

// Finish returns OK if end.Messages <= b.Max, with the count, the formula
// and the bound as its detail.
func (b MessageBound) Finish(end End) trace.Verdict {
	d := fmt.Sprintf("%d messages, bound %s = %d", end.Messages, b.Formula, b.Max)
	return trace.Verdict{Property: string(IDMessageBound), OK: end.Messages <= b.Max, Detail: d}
}

// sortedKeys returns a map's int keys in order.
func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Counter marks a property that never reports a violation: its verdict
// only counts something (overtakings where no order is promised, say).
// The exhaustive checker does not list it among the properties it judged
// on one path per state, since there is nothing to judge.
type Counter interface {
	Property
	// OnlyCounts marks the property; it does nothing.
	OnlyCounts()
}
