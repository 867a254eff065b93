package statespace

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of a transition: one nondeterministic choice.
type Kind uint8

// Transition kinds.
const (
	Deliver Kind = iota + 1 // deliver a message from From to Node
	Fire                    // fire Node's pending timer Timer
	Command                 // give Node its oldest pending command
	Drop                    // lose a message from From to Node (--drops)
	Crash                   // crash Node (--crashes)
	Restart                 // restart Node with amnesia (--restarts)
)

// Trans is one transition out of a state. Msg identifies the message
// (its interned number) for Deliver and Drop; K is its position on the
// link, the label's ".K" under the random policy.
type Trans struct {
	Kind  Kind   // what the transition does
	Node  int16  // the node it happens at (a delivery's receiver)
	From  int16  // Deliver, Drop: the sender
	K     int16  // Deliver, Drop: the message's position on its link
	Timer int32  // Fire: the timer's id
	Msg   uint32 // Deliver, Drop: the message's interned number
}

// same reports whether t and u are the same transition (in two states).
func (t Trans) same(u Trans) bool {
	return t.Kind == u.Kind && t.Node == u.Node && t.From == u.From && t.Timer == u.Timer && t.Msg == u.Msg
}

// String is the transition's label in a path: d2-3 (deliver the message
// at the head of link 2->3; d2-3.1 the second one under the random
// policy), t3:1 (node 3's timer 1 fires), c2 (node 2's next command), l2-3
// (the network loses it), x2 (node 2 crashes), r2 (node 2 restarts).
func (t Trans) String() string {
	switch t.Kind {
	case Deliver, Drop:
		c := "d"
		if t.Kind == Drop {
			c = "l"
		}
		s := fmt.Sprintf("%s%d-%d", c, t.From, t.Node)
		if t.K > 0 {
			s += "." + strconv.Itoa(int(t.K))
		}
		return s
	case Fire:
		return fmt.Sprintf("t%d:%d", t.Node, t.Timer)
	case Command:
		return fmt.Sprintf("c%d", t.Node)
	case Crash:
		return fmt.Sprintf("x%d", t.Node)
	case Restart:
		return fmt.Sprintf("r%d", t.Node)
	}
	return "?"
}

// ParsePath reads a path of transition labels, comma-separated, for n nodes.
func ParsePath(s string, n int) ([]Trans, error) {
	var path []Trans
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for f := range strings.SplitSeq(s, ",") {
		t, err := parseTrans(strings.TrimSpace(f), n)
		if err != nil {
			return nil, err
		}
		path = append(path, t)
	}
	return path, nil
}

func parseTrans(f string, n int) (Trans, error) {
	bad := fmt.Errorf("%q is not a transition (want d1-2, d1-2.K, l1-2, t3:1, c2, x2 or r2 with nodes in 1..%d)", f, n)
	if len(f) < 2 {
		return Trans{}, bad
	}
	num := func(s string) (int, bool) {
		v, err := strconv.Atoi(s)
		return v, err == nil && v >= 1 && v <= n && strconv.Itoa(v) == s
	}
	body := f[1:]
	switch f[0] {
	case 'd', 'l':
		kind := Deliver
		if f[0] == 'l' {
			kind = Drop
		}
		k := 0
		if a, b, ok := strings.Cut(body, "."); ok {
			v, err := strconv.Atoi(b)
			if err != nil || v < 1 || v > 1<<14 || strconv.Itoa(v) != b {
				return Trans{}, bad
			}
			body, k = a, v
		}
		a, b, ok := strings.Cut(body, "-")
		from, ok1 := num(a)
		to, ok2 := num(b)
		if !ok || !ok1 || !ok2 {
			return Trans{}, bad
		}
		return Trans{Kind: kind, Node: int16(to), From: int16(from), K: int16(k)}, nil
	case 't':
		a, b, ok := strings.Cut(body, ":")
		i, ok1 := num(a)
		id, err := strconv.Atoi(b)
		if !ok || !ok1 || err != nil || strconv.Itoa(id) != b || id < -1<<30 || id > 1<<30 {
			return Trans{}, bad
		}
		return Trans{Kind: Fire, Node: int16(i), Timer: int32(id)}, nil
	case 'c', 'x', 'r':
		i, ok := num(body)
		if !ok {
			return Trans{}, bad
		}
		kind := map[byte]Kind{'c': Command, 'x': Crash, 'r': Restart}[f[0]]
		return Trans{Kind: kind, Node: int16(i)}, nil
	}
	return Trans{}, bad
}

// FormatPath joins a path's labels.
func FormatPath(path []Trans) string {
	parts := make([]string, len(path))
	for k, t := range path {
		parts[k] = t.String()
	}
	return strings.Join(parts, ",")
}

// ParseLasso reads a path that may hold one "|": the labels before it
// are the prefix, those after it a cycle (as a liveness check prints a
// lasso). Without "|", cycle is nil; with nothing after it, cycle is
// empty (not nil): a stutter, the lasso of a prefix that ends in a state
// where nothing can happen.
func ParseLasso(s string, n int) (prefix, cycle []Trans, err error) {
	a, b, ok := strings.Cut(s, "|")
	if prefix, err = ParsePath(a, n); err != nil || !ok {
		return prefix, nil, err
	}
	if strings.Contains(b, "|") {
		return nil, nil, fmt.Errorf("more than one %q: a lasso is a prefix, one %q, then the cycle", "|", "|")
	}
	if cycle, err = ParsePath(b, n); err != nil {
		return nil, nil, err
	}
	if cycle == nil {
		cycle = []Trans{} // a stutter: the prefix ends where nothing can happen
	}
	return prefix, cycle, nil
}

// FormatLasso writes a lasso as ParseLasso reads it: prefix|cycle.
func FormatLasso(prefix, cycle []Trans) string {
	return FormatPath(prefix) + "|" + FormatPath(cycle)
}

// hashTrans is a hash of the sleep set ts (in that order), for
// store.Seqs.
func hashTrans(ts []Trans) uint64 {
	h := uint64(len(ts))
	for _, t := range ts {
		for _, v := range [...]uint64{uint64(t.Kind)<<48 | uint64(uint16(t.Node))<<32 | uint64(uint16(t.From))<<16 | uint64(uint16(t.K)), uint64(uint32(t.Timer))<<32 | uint64(t.Msg)} {
			h ^= v
			h *= 0x9e3779b97f4a7c15
			h ^= h >> 29
		}
	}
	return h
}
