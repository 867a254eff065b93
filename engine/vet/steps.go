package vet

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"

	"ringlab/engine"
	"ringlab/engine/node"
)

// maxPerKey bounds the inputs the key check gives one state: those the
// search met first in its key.
const maxPerKey = 16

// rec is one (node state, input) pair the search stepped, and what
// stepping a clone of the state by the input gave.
type rec struct {
	i    int
	key  string        // the state's key when the search met it
	st   node.Snapshot // a clone of the state, the linter's own
	in   node.Input
	text string // in as text
	// After stepAll: the first step's output, next state and its key.
	out  node.Output
	next node.Snapshot
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

	determinism, clone []Finding
}

// stopped reports, every 256 calls of k, whether the linter's context is
// done: Ctrl-C stops the checks at once, not after every pair is stepped.
func (l *linter) stopped(k int) bool {
	return k&255 == 0 && l.ctx != nil && l.ctx.Err() != nil
}

// record is statespace's Config.OnStep: it keeps each distinct pair.
func (l *linter) record(i int, before node.Snapshot, in node.Input) {
	key := string(before.AppendKey(nil))
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
	id := fmt.Sprintf("%s %T %+v", m.Type(), m, m)
	if !l.msgSeen[id] {
		l.msgSeen[id] = true
		l.msgs = append(l.msgs, m)
	}
}

// stepAll runs the clone and determinism checks on every pair, in the
// order the search met them, keeping the first finding of each.
func (l *linter) stepAll() {
	for k := range l.recs {
		if l.stopped(k) {
			return
		}
		r := &l.recs[k]
		if len(l.clone) == 0 {
			before := r.st.AppendKey(nil)
			c := r.st.Clone().(node.Snapshot)
			if _, _, p := step(c, r.in); p == "" {
				if after := r.st.AppendKey(nil); !bytes.Equal(before, after) {
					l.clone = append(l.clone, Finding{Check: CheckClone, Node: r.i, Method: "Clone", Input: r.text,
						Detail: fmt.Sprintf("stepping the clone changed the original's key from %s to %s: Clone shares a slice, map or pointer with its original", keyText(string(before)), keyText(string(after)))})
				}
			}
		}
		a, b := r.st.Clone().(node.Snapshot), r.st.Clone().(node.Snapshot)
		oa, ka, pa := step(a, r.in)
		ob, kb, pb := step(b, r.in)
		r.out, r.next, r.nkey = oa, a, string(ka)
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
func (l *linter) keys(first []node.Snapshot) []Finding {
	try := func(i int, st node.Snapshot, how string) []Finding {
		key := string(st.AppendKey(nil))
		for n, k := range l.met[metKey{i, key}] {
			if n == maxPerKey {
				break
			}
			q := &l.recs[k]
			if q.bad {
				continue
			}
			c := st.Clone().(node.Snapshot)
			o, nk, p := step(c, q.in)
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
					Detail: fmt.Sprintf("two states with key %s (%s, and %s %s) behave differently: %s: the key leaves out a field that changes behaviour",
						keyText(key), stateText(q.st), stateText(st), how, diff)}}
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
func step(nd node.Snapshot, in node.Input) (out node.Output, key []byte, panicked string) {
	defer func() {
		if v := recover(); v != nil {
			panicked = fmt.Sprint(v)
		}
	}()
	nd.Step(in, &out)
	return out, nd.AppendKey(nil), ""
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
