package statespace

import (
	"fmt"
	"slices"
	"strings"

	"ringlab/engine/check"
)

// wholes is, by the index of a check.Eventually property of cfg, what a
// promise made to the run as a whole (check.Whole) leaves unmet, in
// words; "" for a property whose promises are made to nodes.
func wholes(cfg Config) []string {
	if cfg.Checks == nil {
		return nil
	}
	var ws []string
	for _, p := range cfg.Checks() {
		if ev, ok := p.(check.Eventually); ok {
			w := ""
			if wp, ok := ev.Promise().(check.Whole); ok {
				w = wp.Unmet()
			}
			ws = append(ws, w)
		}
	}
	return ws
}

// isWhole reports whether ws (wholes) says the k-th property's promise
// is made to the run as a whole.
func isWhole(ws []string, k int) bool { return k < len(ws) && ws[k] != "" }

// NeverKept is the check.Eventually properties (with Config.Liveness) a
// lasso violates: those with a promise owed in every state of its cycle
// and kept by none of its steps, in the order of Config.Checks. An empty
// cycle (a stutter) violates those owed where the prefix ends. It is how
// a lasso replayed from a --path is judged: by the promises it leaves
// owed all the way round, not by the verdicts where one turn of it ends.
func NeverKept(cfg Config, prefix, cycle []Trans) ([]check.ID, error) {
	us, err := Unkept(cfg, prefix, cycle)
	var ids []check.ID
	for _, u := range us {
		if !slices.Contains(ids, u.Property) {
			ids = append(ids, u.Property)
		}
	}
	return ids, err
}

// An UnkeptPromise is one promise of a check.Eventually property: to Node, or
// to the run as a whole (Node 0, a check.Whole promise).
type UnkeptPromise struct {
	Property check.ID // the check.Eventually property that makes it
	Node     int      // the node it is owed to; 0: the run as a whole
}

// Unkept is NeverKept by promise: every promise the lasso leaves owed for
// ever, in the order of Config.Checks and then of the nodes, so that a
// lasso's verdict names the nodes it starves and not those it serves on
// every turn.
func Unkept(cfg Config, prefix, cycle []Trans) ([]UnkeptPromise, error) {
	m, s, err := newMachine(cfg, nil, nil)
	if err != nil {
		return nil, err
	}
	var owed, kept uint64
	for k, t := range append(slices.Clone(prefix), cycle...) {
		if k == len(prefix) {
			owed = m.owed(s)
		}
		u, ok := m.find(s, t)
		if !ok {
			return nil, fmt.Errorf("%s is not enabled here", t)
		}
		if s, _, err = m.step(s, u); err != nil {
			return nil, err
		}
		if k >= len(prefix) {
			kept |= m.kept
			owed &= m.owed(s)
		}
	}
	if len(cycle) == 0 {
		owed = m.owed(s)
	}
	never := owed &^ kept
	ws := wholes(cfg)
	var us []UnkeptPromise
	for b := 0; b < 64 && never>>b != 0; b++ {
		if never>>b&1 == 0 {
			continue
		}
		k := b / m.n
		if isWhole(ws, k) {
			us = append(us, UnkeptPromise{Property: liveNameOf(cfg, k)})
		} else {
			us = append(us, UnkeptPromise{Property: liveNameOf(cfg, k), Node: b%m.n + 1})
		}
	}
	return us, nil
}

// wholeBits is the bits of the promises to the run as a whole among the
// promises of cfg's check.Eventually properties, for n nodes: a step that
// keeps one is counted once, by the per-node promise it keeps too, where
// promises kept count entries (the messages per entry, the waits).
func wholeBits(cfg Config, n int) uint64 {
	var m uint64
	for k, w := range wholes(cfg) {
		if w != "" && k*n < 64 {
			m |= 1 << (k * n)
		}
	}
	return m
}

// Refuted is what a lasso's cycle refutes, in the words its replay and the
// explorer's page give: the first check.Eventually property (want, if set)
// with a promise the cycle leaves owed for ever (Unkept), and to whom,
// names naming the nodes. id is "" when every promise is kept on the way
// round. Whether the cycle is fair is UnfairCycle's to say.
func Refuted(cfg Config, prefix, cycle []Trans, want check.ID, names func(int) string) (id check.ID, words string, err error) {
	us, err := Unkept(cfg, prefix, cycle)
	if err != nil {
		return "", "", err
	}
	var to []string
	for _, u := range us {
		if id == "" && (want == "" || u.Property == want) {
			id = u.Property
		}
		switch {
		case u.Property != id:
		case u.Node == 0:
			return id, "a promise to the run as a whole stays owed all the way round the cycle, which repeats for ever", nil
		default:
			to = append(to, names(u.Node))
		}
	}
	if want != "" {
		id = want
	}
	if len(to) == 0 {
		return id, "a promise stays owed all the way round the cycle, which repeats for ever", nil
	}
	return id, fmt.Sprintf("the promise to %s stays owed all the way round the cycle, which repeats for ever", strings.Join(to, ", ")), nil
}
