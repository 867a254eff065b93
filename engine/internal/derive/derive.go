// Package derive is the one place where the engine copies a node's state
// and says which state it is (its key): by the node's own Clone and
// AppendKey when it has them (a node.Snapshot, the fast path), else by
// reading its Go value (engine/internal/canon): a deep copy, and the
// canonical encoding of its type and every field. A node is then its
// state and its Step; a hand-written Snapshot stays a fast path, which
// engine/vet checks against the derived copy and key.
package derive

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"ringlab/engine/internal/canon"
	"ringlab/engine/node"
)

// Ops copies and keys node states. The zero Ops takes a node.Snapshot's
// own methods and derives the rest; Derived derives every node's, its
// Clone and AppendKey ignored (to check them, or to measure them).
type Ops struct {
	Derived bool
}

// hand is nd's own Snapshot, if o uses it.
func (o Ops) hand(nd node.Node) (node.Snapshot, bool) {
	if o.Derived {
		return nil, false
	}
	s, ok := nd.(node.Snapshot)
	return s, ok
}

// Clone returns an independent copy of nd: stepping one never changes
// the other.
func (o Ops) Clone(nd node.Node) node.Node {
	if s, ok := o.hand(nd); ok {
		return s.Clone()
	}
	return Clone(nd)
}

// AppendKey appends nd's key to b: two states of one node have one key
// exactly when they behave alike from there on.
func (o Ops) AppendKey(b []byte, nd node.Node) []byte {
	if s, ok := o.hand(nd); ok {
		return s.AppendKey(b)
	}
	return AppendKey(b, nd)
}

// Check refuses a node whose state o cannot copy or compare: one o
// derives that holds a func, a chan or an unsafe pointer, named by its
// type and field path (a Snapshot o takes the methods of may hold
// them: its own methods say what its state is).
func (o Ops) Check(nd node.Node) error {
	if _, ok := o.hand(nd); ok {
		return nil
	}
	return Check(nd)
}

// Clone is nd's derived copy: canon.Copy of its value.
func Clone(nd node.Node) node.Node {
	return canon.Copy(nd).(node.Node)
}

// AppendKey appends nd's derived key to b: canon.AppendState of its
// value (its Fixed fields left out). It
// panics with an *Error for a state canon cannot encode, which Check
// rules out but for an interface field holding a func or a chan, or
// pointers that make a cycle.
func AppendKey(b []byte, nd node.Node) []byte {
	k, err := canon.AppendState(b, nd)
	if err != nil {
		panic(&Error{Type: fmt.Sprintf("%T", nd), Err: err})
	}
	return k
}

// Error is a node state the engine cannot copy or compare.
type Error struct {
	Type string // the node's Go type, as %T prints it
	Err  error  // canon's error: the field's path and why
}

// Error names the node type, the field and why; the field path starts
// with the type's own name, as "raymond.Node.onGrant".
func (e *Error) Error() string {
	what := e.Err.Error()
	var ce *canon.Error
	if errors.As(e.Err, &ce) {
		what = ce.Path + ": " + ce.Why
	}
	return fmt.Sprintf("the state of %s cannot be copied or compared: %s (a node's state is data: hold a value there, or tag the field `ringlab:\"fixed\"` if it is set when the node is built and never changed)", e.Type, what)
}

// ExitCode is 1: the node type breaks the engine's contract (its state
// is data), which no flag can mend (exit 2 names a flag), and no verdict
// can be given.
func (*Error) ExitCode() int { return 1 }

// Unwrap returns canon's error.
func (e *Error) Unwrap() error { return e.Err }

var checked sync.Map // reflect.Type -> error (nil: fine)

// Check refuses a node type whose values hold a func, a chan or an
// unsafe pointer, which have no value to copy or compare. It reads each
// type once.
func Check(nd node.Node) error {
	t := reflect.TypeOf(nd)
	if t == nil {
		return nil
	}
	if v, ok := checked.Load(t); ok {
		err, _ := v.(error)
		return err
	}
	var err error
	if cerr := canon.Check(t); cerr != nil {
		err = &Error{Type: t.String(), Err: cerr}
	}
	checked.Store(t, err)
	return err
}
