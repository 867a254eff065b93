package statespace

import (
	"fmt"
	"slices"

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
	var ids []check.ID
	for k := 0; k*m.n < 64 && never>>(k*m.n) != 0; k++ {
		if never>>(k*m.n)&(uint64(1)<<m.n-1) != 0 {
			ids = append(ids, liveNameOf(cfg, k))
		}
	}
	return ids, nil
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
