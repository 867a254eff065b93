package explore

import (
	"fmt"
	"slices"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/statespace"
)

// NeverKept is the check.Eventually properties (with statespace.Config.Liveness) a
// lasso violates: those with a promise owed in every state of its cycle
// and kept by none of its steps, in the order of statespace.Config.Checks. An empty
// cycle (a stutter) violates those owed where the prefix ends. It is how
// a lasso replayed from a --path is judged: by the promises it leaves
// owed all the way round, not by the verdicts where one turn of it ends.
func NeverKept(cfg statespace.Config, prefix, cycle []statespace.Trans) ([]check.ID, error) {
	us, err := Unkept(cfg, prefix, cycle)
	var ids []check.ID
	for _, u := range us {
		if !slices.Contains(ids, u.Property) {
			ids = append(ids, u.Property)
		}
	}
	return ids, err
}

// Unkept is NeverKept by promise: every promise the lasso leaves owed for
// ever, in the order of statespace.Config.Checks and then of the nodes, so that a
// lasso's verdict names the nodes it starves and not those it serves on
// every turn.
func Unkept(cfg statespace.Config, prefix, cycle []statespace.Trans) ([]statespace.Promise, error) {
	m, err := statespace.NewMachine(cfg)
	if err != nil {
		return nil, err
	}
	s := m.Initial()
	var owed, kept uint64
	for k, t := range append(slices.Clone(prefix), cycle...) {
		if k == len(prefix) {
			owed = m.Owed(s)
		}
		u, ok := m.Find(s, t)
		if !ok {
			return nil, fmt.Errorf("%s is not enabled here", t)
		}
		if s, _, err = m.Step(s, u); err != nil {
			return nil, err
		}
		if k >= len(prefix) {
			kept |= m.Kept()
			owed &= m.Owed(s)
		}
	}
	if len(cycle) == 0 {
		owed = m.Owed(s)
	}
	never := owed &^ kept
	var ps []statespace.Promise
	for b := 0; b < 64 && never>>b != 0; b++ {
		if p, ok := m.Promise(b); ok && never>>b&1 != 0 {
			ps = append(ps, p)
		}
	}
	return ps, nil
}

// wholeBits is the bits of the promises to the run as a whole: a step
// that keeps one is counted once, by the per-node promise it keeps too,
// where promises kept count entries (the messages per entry, the waits).
func (x *Explorer) wholeBits() uint64 {
	var m uint64
	for b := range 64 {
		if p, ok := x.m.Promise(b); ok && p.Node == 0 {
			m |= 1 << b
		}
	}
	return m
}

// Refuted is what a lasso's cycle refutes, in the words its replay and the
// explorer's page give: the first check.Eventually property (want, if set)
// with a promise the cycle leaves owed for ever (Unkept), and to whom,
// names naming the nodes. id is "" when every promise is kept on the way
// round. Whether the cycle is fair is UnfairCycle's to say.
func Refuted(cfg statespace.Config, prefix, cycle []statespace.Trans, want check.ID, names func(int) string) (id check.ID, words string, err error) {
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

// UnfairCycle reports whether the cycle of a lasso is unfair: a step that
// stays enabled in every state of the cycle, by the groups of weak
// fairness (statespace.FairGroup: a message on a link, a node's commands,
// a timer), and is never taken on it. A fair schedule does not repeat
// such a cycle for ever, so the promises it leaves owed prove no liveness
// violation. The step is returned (as enabled in the cycle's first
// state); an empty cycle (a stutter in a terminal state) is fair. The
// lasso must replay (statespace.ReplayLasso).
func UnfairCycle(cfg statespace.Config, prefix, cycle []statespace.Trans) (statespace.Trans, bool, error) {
	if len(cycle) == 0 {
		return statespace.Trans{}, false, nil
	}
	m, err := statespace.NewMachine(cfg)
	if err != nil {
		return statespace.Trans{}, false, err
	}
	s := m.Initial()
	walk := func(t statespace.Trans) error {
		u, ok := m.Find(s, t)
		if !ok {
			return fmt.Errorf("%s is not enabled here", t)
		}
		next, _, err := m.Step(s, u)
		s = next
		return err
	}
	for _, t := range prefix {
		if err := walk(t); err != nil {
			return statespace.Trans{}, false, err
		}
	}
	always := map[statespace.Trans]statespace.Trans{} // group -> its step where the cycle begins
	taken := map[statespace.Trans]bool{}
	for k, t := range cycle {
		on := map[statespace.Trans]bool{}
		for _, e := range m.Enabled(s, nil) {
			if g, ok := statespace.FairGroup(e); ok {
				on[g] = true
				if k == 0 {
					always[g] = e
				}
			}
		}
		for g := range always {
			if !on[g] {
				delete(always, g)
			}
		}
		if g, ok := statespace.FairGroup(t); ok {
			taken[g] = true
		}
		if err := walk(t); err != nil {
			return statespace.Trans{}, false, err
		}
	}
	var left []statespace.Trans
	for g, e := range always {
		if !taken[g] {
			left = append(left, e)
		}
	}
	if len(left) == 0 {
		return statespace.Trans{}, false, nil
	}
	slices.SortFunc(left, func(a, b statespace.Trans) int { return strings.Compare(a.String(), b.String()) })
	return left[0], true, nil
}
