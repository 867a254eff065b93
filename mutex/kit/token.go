package kit

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/trace"
)

// OneToken checks a token algorithm: at most one token exists at any
// time. It follows the copies of the token — messages of type Type — from
// the notes "token <id> created", "token <id> regenerated: ..." and
// "token <id> retired: ..." and the send/recv/drop/dup events of those
// messages: a copy is held by a node from its creation or receipt until
// the node sends or retires one, and in flight until delivered, lost or
// duplicated. A crashed holder or a message lost on a link loses a token:
// that is reported, but it is a liveness matter (judged by Deadlock,
// Starvation and TokenEventually), not a second token.
//
// A report names the copies by their message's TokenID() ("1.0",
// tokenring.Msg), where it has one; but the count, which alone decides a
// violation, does not tell tokens apart: a node that sends or retires a
// token gives up a copy it holds, whichever.
//
// The exhaustive checker judges it at every state it reaches (it is a
// check.Snapshot). Its key is how many copies each node holds, how many
// are in flight, and the most seen at once: no token id (the checker's
// renaming of the nodes' identifiers renames the generations a token
// ring makes up, and the key must move with them), and not the counts of
// losses and regenerations, which grow for ever on a run without end and
// only word the verdict.
//
// It is a check.OrderDependent property: a step that changes the number
// of tokens does not commute with one that changes it the other way at
// another node — a regeneration at node 3 before node 2 retires its token
// shows two tokens at once, and after it none — so the search must take
// such steps as dependent on every other, or its sleep sets would explore
// one order only and could miss the second token.
type OneToken struct {
	check.Times
	Type string // the token message's type

	tok   tokens
	worst int
}

var (
	_ check.OrderDependent = (*OneToken)(nil)
	_ check.Filter         = (*OneToken)(nil)
	_ check.NodeRenamer    = (*OneToken)(nil)
)

// ID names the checked property.
func (*OneToken) ID() check.ID { return IDOneToken }

// Wants implements check.Wanter: the notes, the messages and the crashes.
func (*OneToken) Wants() trace.Kinds { return tokenKinds }

// Concerns implements check.Filter: a note about a token, an event of a
// token message, or the crash of a node that holds one.
func (o *OneToken) Concerns(e *trace.Event) bool { return o.tok.concerns(e, o.Type) }

// Observe moves tokens around and reports a second one.
func (o *OneToken) Observe(e *trace.Event) string {
	o.tok.observe(e, o.Type)
	if n := len(o.tok.copies); n > 1 && n > o.worst {
		o.worst = n
		return fmt.Sprintf("%d tokens exist at once: %s (t=%s)", n, strings.Join(o.tok.ids(), " and "), o.Time(e.T))
	}
	return ""
}

// Finish gives the verdict and the losses and regenerations seen.
func (o *OneToken) Finish(check.End) trace.Verdict {
	v := trace.Verdict{Property: string(o.ID()), OK: o.worst < 2}
	if !v.OK {
		v.Detail = fmt.Sprintf("up to %d tokens at once", o.worst)
	}
	if o.tok.lost > 0 || o.tok.regens > 0 {
		v.Detail = strings.TrimPrefix(v.Detail+fmt.Sprintf("; %d token(s) lost, %d regenerated", o.tok.lost, o.tok.regens), "; ")
	}
	return v
}

// Clone implements check.Snapshot.
func (o *OneToken) Clone() check.Snapshot {
	c := *o
	c.tok = o.tok.clone()
	return &c
}

// AppendKey implements check.Snapshot: the most tokens seen at once (a
// violation reported stays in the key), then where the copies are.
func (o *OneToken) AppendKey(b []byte) []byte {
	return o.tok.appendKey(binary.AppendUvarint(b, uint64(o.worst)))
}

// RenameNodes implements check.NodeRenamer: the holders are renamed.
func (o *OneToken) RenameNodes(perm []int) { o.tok.renameNodes(perm) }

// OrderDependent implements check.OrderDependent.
func (*OneToken) OrderDependent() {}

// tokenKinds are the kinds of events that move tokens.
var tokenKinds = trace.KindsOf(trace.KindNote, trace.KindSend, trace.KindRecv, trace.KindDrop, trace.KindDup, trace.KindCrash)

// tokens is where the copies of a token are, as OneToken and
// TokenEventually follow them, and what was lost and regenerated.
type tokens struct {
	copies []tokenCopy // sorted by node, then id
	lost   int
	regens int
}

// tokenCopy is one copy of a token: held by node, or in flight (node 0).
type tokenCopy struct {
	node int
	id   string
}

func cmpCopy(a, b tokenCopy) int {
	return cmp.Or(cmp.Compare(a.node, b.node), strings.Compare(a.id, b.id))
}

// clone is an independent copy of t.
func (t tokens) clone() tokens {
	t.copies = slices.Clone(t.copies)
	return t
}

// take puts a copy id at node i (0: in flight).
func (t *tokens) take(i int, id string) {
	c := tokenCopy{i, id}
	k, _ := slices.BinarySearchFunc(t.copies, c, cmpCopy)
	t.copies = slices.Insert(t.copies, k, c)
}

// give takes a copy away from node i (0: from flight): the one named id
// if it is there, else any, if i has one. It reports whether it took one.
func (t *tokens) give(i int, id string) bool {
	k, ok := slices.BinarySearchFunc(t.copies, tokenCopy{i, id}, cmpCopy)
	if !ok {
		k = slices.IndexFunc(t.copies, func(c tokenCopy) bool { return c.node == i })
	}
	if k < 0 {
		return false
	}
	t.copies = slices.Delete(t.copies, k, k+1)
	return true
}

// holds reports whether node i holds a copy.
func (t *tokens) holds(i int) bool {
	return slices.ContainsFunc(t.copies, func(c tokenCopy) bool { return c.node == i })
}

// concerns reports whether e may move a token of message type typ.
func (t *tokens) concerns(e *trace.Event, typ string) bool {
	switch e.Kind {
	case trace.KindNote:
		return strings.HasPrefix(e.Note, "token ")
	case trace.KindCrash:
		return t.holds(e.Node)
	}
	return e.Msg != nil && e.Msg.Type() == typ
}

// observe moves the copies by e, for a token of message type typ.
func (t *tokens) observe(e *trace.Event, typ string) {
	isTok := e.Msg != nil && e.Msg.Type() == typ
	switch {
	case e.Kind == trace.KindNote && strings.HasPrefix(e.Note, "token "):
		f := strings.Fields(e.Note)
		if len(f) < 3 {
			break
		}
		switch strings.TrimSuffix(f[2], ":") {
		case "created":
			t.take(e.Node, f[1])
		case "regenerated":
			t.regens++
			t.take(e.Node, f[1])
		case "retired":
			t.give(e.Node, f[1])
		}
	case e.Kind == trace.KindSend && isTok:
		t.give(e.Node, tokenID(e.Msg))
		t.take(0, tokenID(e.Msg))
	case e.Kind == trace.KindRecv && isTok:
		t.give(0, tokenID(e.Msg))
		t.take(e.Node, tokenID(e.Msg))
	case e.Kind == trace.KindDrop && isTok:
		if t.give(0, tokenID(e.Msg)) {
			t.lost++
		}
	case e.Kind == trace.KindDup && isTok:
		t.take(0, tokenID(e.Msg))
	case e.Kind == trace.KindCrash:
		n := len(t.copies)
		t.copies = slices.DeleteFunc(t.copies, func(c tokenCopy) bool { return c.node == e.Node })
		t.lost += n - len(t.copies)
	}
}

// ids lists the ids of the copies, one entry per copy, in order.
func (t *tokens) ids() []string {
	ids := make([]string, len(t.copies))
	for k, c := range t.copies {
		ids[k] = c.id
	}
	slices.Sort(ids)
	return ids
}

// appendKey appends where the copies are, without their ids.
func (t *tokens) appendKey(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.copies)))
	for _, c := range t.copies {
		b = binary.AppendUvarint(b, uint64(c.node))
	}
	return b
}

// renameNodes renames every holder i to perm[i] (perm[0] is 0: a copy in
// flight stays in flight), in place.
func (t *tokens) renameNodes(perm []int) {
	for k := range t.copies {
		t.copies[k].node = perm[t.copies[k].node]
	}
	slices.SortFunc(t.copies, cmpCopy)
}

// tokenID names a token by its message's TokenID() ("<origin>.<gen>")
// where it has one, else by its whole value.
func tokenID(m *trace.Msg) string {
	if t, ok := m.Value.(interface{ TokenID() string }); ok {
		return t.TokenID()
	}
	return fmt.Sprintf("%+v", m.Value)
}
