package vet

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"

	"ringlab/engine"
	"ringlab/engine/internal/canon"
	"ringlab/engine/internal/derive"
	"ringlab/engine/node"
)

// maxPerKey bounds the inputs the key check gives one state: those the
// search met first in its key.
const maxPerKey = 16

// rec is one (node state, input) pair the search stepped, and what
// stepping a clone of the state by the input gave.
type rec struct {
	i    int
	key  string    // the state's key when the search met it
	st   node.Node // a clone of the state, the linter's own
	in   node.Input
	text string // in as text
	// After stepAll: the first step's output, next state and its key.
	out  node.Output
	next node.Node
	nkey string
	bad  bool // Step panicked or was not deterministic here
}

type metKey struct {
	i   int
	key string
}

// linter collects the pairs the search meets and checks them.
type linter struct {
	ctx     context.Context // the checks stop stepping once it is done
	sys     engine.System
	recs    []rec
	seen    map[string]bool  // node, key and input of the pairs in recs
	met     map[metKey][]int // indices in recs of the inputs met in a key
	msgs    []node.Msg       // every message the nodes received or sent
	msgSeen map[string]bool
	// ops copies and keys the states: the node's own Clone and AppendKey
	// where it has them.
	ops derive.Ops

	determinism, clone []Finding
	// hand holds the findings of checkHand (hand.go), byValue the hand
	// key of each node state met, by node and derived encoding.
	hand    []Finding
	byValue map[string]string
}

// stopped reports, every 256 calls of k, whether the linter's context is
// done: Ctrl-C stops the checks at once, not after every pair is stepped.
func (l *linter) stopped(k int) bool {
	return k&255 == 0 && l.ctx != nil && l.ctx.Err() != nil
}

// record is statespace's Config.OnStep: it runs the clone check on the
// step, then keeps each distinct pair.
func (l *linter) record(i int, before node.Node, in node.Input) {
	if len(l.clone) == 0 {
		l.checkClone(i, before, in)
	}
	l.checkHand(i, before)
	key := string(l.ops.AppendKey(nil, before))
	text := inputText(in)
	id := fmt.Sprintf("%d\x00%s\x00%s", i, key, text)
	if l.seen[id] {
		return
	}
	l.seen[id] = true
	mk := metKey{i, key}
	l.met[mk] = append(l.met[mk], len(l.recs))
	l.recs = append(l.recs, rec{i: i, key: key, st: before, in: in, text: text})
	if in.Kind == node.InMsg {
		l.saw(in.Msg)
	}
}

// saw keeps m for the codec check, once per distinct value.
func (l *linter) saw(m node.Msg) {
	if m == nil {
		return
	}
	if l.msgSeen == nil {
		l.msgSeen = map[string]bool{}
	}
	id := msgID(m, len(l.msgs))
	if !l.msgSeen[id] {
		l.msgSeen[id] = true
		l.msgs = append(l.msgs, m)
	}
}

// msgID names m by its value (engine/internal/canon), never by how it
// prints; a message canon cannot encode (the search refuses those it
// meets; a prototype in System.Messages may be one) is named by n, a
// number of its own, so that it is still tried.
func msgID(m node.Msg, n int) string {
	b, err := canon.Append(nil, m)
	if err != nil {
		return fmt.Sprintf("\xff%d", n)
	}
	return string(b)
}

// checkClone is the clone check of one step, made when the search takes
// it: it encodes orig whole (engine/internal/canon, every field, and every
// slice up to its capacity, so that an append into an array the clone
// shares shows), steps a clone of orig by in, and encodes orig again. A
// field that changed is shared with the clone and written in place by
// Step. A node canon cannot encode (a func field) is compared by its key.
func (l *linter) checkClone(i int, orig node.Node, in node.Input) {
	was, err := canon.Fields(innermost(orig), true)
	var key []byte
	if err != nil {
		key = l.ops.AppendKey(nil, orig)
	}
	c := l.ops.Clone(orig)
	if _, _, p := l.step(c, in); p != "" {
		return // the determinism check reports it
	}
	what := ""
	if err != nil {
		if after := l.ops.AppendKey(nil, orig); !bytes.Equal(key, after) {
			what = fmt.Sprintf("the original's key, from %s to %s", keyText(string(key)), keyText(string(after)))
		}
	} else {
		now, _ := canon.Fields(innermost(orig), true)
		for k := range was {
			if !bytes.Equal(was[k].Enc, now[k].Enc) {
				what = "the original's value"
				if was[k].Name != "" {
					what = "the original's field " + was[k].Name
				}
				break
			}
		}
	}
	if what != "" {
		l.clone = append(l.clone, Finding{Check: CheckClone, Node: i, Method: "Clone", Input: inputText(in),
			Detail: fmt.Sprintf("stepping a clone of the %T changed %s: Clone shares a slice, map or pointer with its original that Step writes in place (an append into spare capacity included)", innermost(orig), what)})
	}
}

// innermost is the node nd wraps, by the Unwrap methods of its wrappers
// (nd itself if it wraps none): the node whose fields a finding names.
func innermost(nd node.Node) node.Node {
	for {
		u, ok := nd.(interface{ Unwrap() node.Node })
		if !ok || u.Unwrap() == nil {
			return nd
		}
		nd = u.Unwrap()
	}
}

// stepAll runs the determinism check on every pair, in the order the
// search met them, keeping the first finding.
func (l *linter) stepAll() {
	for k := range l.recs {
		if l.stopped(k) {
			return
		}
		r := &l.recs[k]
		a, b := l.ops.Clone(r.st), l.ops.Clone(r.st)
		oa, ka, pa := l.step(a, r.in)
		ob, kb, pb := l.step(b, r.in)
		r.out, r.next, r.nkey = oa, a, string(ka)
		l.checkHand(r.i, a)
		for _, s := range oa.Sends {
			l.saw(s.Msg)
		}
		if pa != "" || pb != "" {
			r.bad = true
			if len(l.determinism) == 0 {
				l.determinism = append(l.determinism, Finding{Check: CheckDeterminism, Node: r.i, Method: "Step", Input: r.text,
					Detail: "Step panicked: " + pa + pb})
			}
			continue
		}
		diff := ""
		switch {
		case !sameOutput(&oa, &ob):
			diff = fmt.Sprintf("two clones of one state gave different outputs: %s, then %s", outputText(&oa), outputText(&ob))
		case !bytes.Equal(ka, kb):
			diff = fmt.Sprintf("two clones of one state have different keys afterwards: %s, then %s", keyText(string(ka)), keyText(string(kb)))
		}
		if diff != "" {
			r.bad = true
			if len(l.determinism) == 0 {
				l.determinism = append(l.determinism, Finding{Check: CheckDeterminism, Node: r.i, Method: "Step", Input: r.text, Detail: diff})
			}
		}
	}
}

// keys runs the key check: every state reached (each pair's next state,
// and each node's first state) is stepped by the inputs the search met in
// its key, and must do what the state the search kept for that key did.
// It returns the first pair that does not.
func (l *linter) keys(first []node.Node) []Finding {
	try := func(i int, st node.Node, how string) []Finding {
		key := string(l.ops.AppendKey(nil, st))
		for n, k := range l.met[metKey{i, key}] {
			if n == maxPerKey {
				break
			}
			q := &l.recs[k]
			if q.bad {
				continue
			}
			c := l.ops.Clone(st)
			o, nk, p := l.step(c, q.in)
			diff := ""
			switch {
			case p != "":
				diff = "Step panicked in the one but not the other: " + p
			case !sameOutput(&o, &q.out):
				diff = fmt.Sprintf("outputs %s, and %s", outputText(&q.out), outputText(&o))
			case string(nk) != q.nkey:
				diff = fmt.Sprintf("next keys %s, and %s", keyText(q.nkey), keyText(string(nk)))
			}
			if diff != "" {
				return []Finding{{Check: CheckKey, Node: i, Method: "AppendKey", Input: q.text,
					Detail: fmt.Sprintf("two states with key %s (%s, and %s %s) behave differently: %s: the key leaves out a field that changes behaviour%s",
						keyText(key), stateText(q.st), stateText(st), how, diff, differing(q.st, st))}}
			}
		}
		return nil
	}
	for i := 1; i < len(first); i++ {
		if f := try(i, first[i], "built by the Factory"); f != nil {
			return f
		}
	}
	for k := range l.recs {
		if l.stopped(k) {
			return nil
		}
		r := &l.recs[k]
		if r.bad || r.next == nil {
			continue
		}
		if f := try(r.i, r.next, "reached by "+r.text); f != nil {
			return f
		}
	}
	return nil
}

// step steps nd by in into a fresh output and returns the output, nd's
// key afterwards, and the panic's value as text if Step panicked.
func (l *linter) step(nd node.Node, in node.Input) (out node.Output, key []byte, panicked string) {
	defer func() {
		if v := recover(); v != nil {
			panicked = fmt.Sprint(v)
		}
	}()
	nd.Step(in, &out)
	return out, l.ops.AppendKey(nil, nd), ""
}

// sameOutput reports whether two steps produced the same thing: sends,
// timers, events and Done.
func sameOutput(a, b *node.Output) bool {
	return a.Done == b.Done && reflect.DeepEqual(nilIfEmpty(a.Sends), nilIfEmpty(b.Sends)) &&
		reflect.DeepEqual(nilIfEmpty(a.Timers), nilIfEmpty(b.Timers)) && reflect.DeepEqual(nilIfEmpty(a.Events), nilIfEmpty(b.Events))
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// inputText is an input as a finding shows it.
func inputText(in node.Input) string {
	switch in.Kind {
	case node.InMsg:
		return fmt.Sprintf("message %s from node %d", msgText(in.Msg), in.From)
	case node.InCmd:
		if in.Arg != 0 {
			return fmt.Sprintf("command %s (arg %d)", in.Cmd, in.Arg)
		}
		return fmt.Sprintf("command %s", in.Cmd)
	case node.InTick:
		return fmt.Sprintf("timer %d", in.Timer)
	}
	return fmt.Sprintf("%+v", in)
}

func msgText(m node.Msg) string {
	if m == nil {
		return "<nil>"
	}
	return clip(fmt.Sprintf("%s %+v", m.Type(), m), 120)
}

// outputText is what a step produced, on one line.
func outputText(o *node.Output) string {
	var parts []string
	for _, s := range o.Sends {
		parts = append(parts, fmt.Sprintf("send %s to %d", msgText(s.Msg), s.To))
	}
	for _, t := range o.Timers {
		parts = append(parts, fmt.Sprintf("timer %d after %d", t.ID, t.After))
	}
	for _, e := range o.Events {
		s := e.Kind.String()
		switch e.Kind {
		case node.EvState:
			s += " " + e.State
		case node.EvLeader:
			s += fmt.Sprintf(" %d", e.Leader)
		}
		if e.Note != "" {
			s += fmt.Sprintf(" %q", e.Note)
		}
		parts = append(parts, s)
	}
	if o.Done {
		parts = append(parts, "done")
	}
	if len(parts) == 0 {
		return "[nothing]"
	}
	return clip("["+strings.Join(parts, "; ")+"]", 300)
}

// keyText is a key as a finding shows it: hexadecimal.
func keyText(k string) string {
	if k == "" {
		return "(empty)"
	}
	return fmt.Sprintf("%x", k)
}

// stateText is a node state as a finding shows it.
func stateText(nd node.Node) string { return clip(fmt.Sprintf("%+v", nd), 160) }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
