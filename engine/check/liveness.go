package check

import (
	"encoding/binary"

	"ringlab/engine/trace"
)

// Eventually is a property with a liveness promise ("every request is
// eventually granted") that the exhaustive checker can judge on runs
// without end: besides its verdict where a run ends (Finish), it gives a
// Promise, the finite state that says in every state which promises are
// still owed. The checker then looks for a fair cycle on which one stays
// owed for ever: the property is written once, a run and a saved log judge
// it where they end, the checker over every infinite schedule.
type Eventually interface {
	Property
	// Promise returns a fresh tracker of the property's promises, in the
	// state of a run that has not begun.
	Promise() Promise
}

// Promise follows a liveness property's promises along a run, one per
// node at most (bit i-1 of a mask is node i's). Observe, Clone and
// AppendKey follow Snapshot's contract: the key holds everything Owed and
// Observe's future answers depend on, and changes only with the events of
// the node an event names.
type Promise interface {
	// Observe sees one event and returns the promises it keeps (a mask):
	// a grant keeps the promise made to its node. A promise kept and made
	// again by one step counts as kept.
	Observe(e *trace.Event) (kept uint64)
	// Owed is the mask of the promises made and not kept yet.
	Owed() uint64
	// Wants is the kinds of events Observe must see.
	Wants() trace.Kinds
	// Clone returns an independent copy.
	Clone() Promise
	// AppendKey appends a canonical encoding of the tracker's state.
	AppendKey(b []byte) []byte
}

// Owed is the Promise "every Ask is eventually answered": Ask at node i
// makes a promise to i, Answer at i keeps it, and a crash of i cancels
// it (a dead node is owed nothing). It suits every property of the shape
// "each request is eventually granted".
type Owed struct {
	Ask, Answer func(e *trace.Event) bool // which events make and keep a node's promise
	Kinds       trace.Kinds               // the kinds of events Ask and Answer look at
	// Start is the promises owed before any event (bit i-1: node i's),
	// for a promise the run makes by starting ("every node eventually
	// takes a leader").
	Start uint64
	owed  uint64
	begun bool
}

// Observe makes, keeps or cancels node e.Node's promise.
func (o *Owed) Observe(e *trace.Event) uint64 {
	o.begin()
	if e.Node < 1 || e.Node > 64 {
		return 0
	}
	bit := uint64(1) << (e.Node - 1)
	switch {
	case e.Kind == trace.KindCrash:
		o.owed &^= bit
	case o.Answer(e):
		kept := o.owed & bit
		o.owed &^= bit
		return kept
	case o.Ask(e):
		o.owed |= bit
	}
	return 0
}

func (o *Owed) begin() {
	if !o.begun {
		o.owed, o.begun = o.Start, true
	}
}

// Owed is the nodes still owed an answer.
func (o *Owed) Owed() uint64 { o.begin(); return o.owed }

// Wants is Kinds and crashes.
func (o *Owed) Wants() trace.Kinds { return o.Kinds | trace.KindsOf(trace.KindCrash) }

// Clone copies the tracker.
func (o *Owed) Clone() Promise { c := *o; return &c }

// AppendKey appends the mask of nodes owed an answer.
func (o *Owed) AppendKey(b []byte) []byte { return binary.AppendUvarint(b, o.Owed()) }

// Whole is a Promise made to the run as a whole rather than to one node
// ("some node eventually enters", "eventually one token"): it uses bit 0
// of its masks alone. The checker then names no node it is owed to and
// counts no overtaking for it; Unmet says in words what stays so on a
// cycle that never keeps it ("nodes wait and nobody enters").
type Whole interface {
	Promise
	// Unmet says what holds, in words, on a cycle that never keeps the
	// promise: it completes "a fair cycle ... on which ..., for ever".
	Unmet() string
}
