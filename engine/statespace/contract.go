package statespace

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// ContractError is a broken node contract (engine/node) that the search
// met, and the search stopped without a verdict: a node state whose key
// changed after it was stored, a path or lasso the search found that does
// not replay from the initial state, an identifier renamed that a node
// never reported. Each means that a Clone shares memory that Step writes,
// that Step is not deterministic, or that a key leaves out a field; 'vet'
// names the method.
type ContractError struct {
	Node string // the nodes' Go type (as %T prints it; several: joined by ", ")
	What string // what broke, in words
}

// Error says which node type broke the contract and how.
func (e *ContractError) Error() string {
	return fmt.Sprintf("the node contract is broken by %s: %s; no verdict (vet finds the method at fault: a Clone that shares memory Step writes, a Step that is not deterministic, or a key that leaves out a field)", e.Node, e.What)
}

// ExitCode is 1, the code of a run that failed: exit 2 says no flag was
// wrong and nothing ran, which is not so here, and a verdict's codes (0,
// 3, 4) would be one the broken contract makes worthless.
func (*ContractError) ExitCode() int { return 1 }

// contract is a ContractError about cfg's nodes, as the Factory builds
// them (a wrapper by the node it names with an Unwrap method).
func contract(cfg Config, what string, a ...any) *ContractError {
	var types []string
	for i := 1; i <= cfg.Nodes; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			continue
		}
		for {
			u, ok := nd.(interface{ Unwrap() node.Node })
			if !ok || u.Unwrap() == nil {
				break
			}
			nd = u.Unwrap()
		}
		types = append(types, fmt.Sprintf("%T", nd))
	}
	slices.Sort(types)
	return &ContractError{Node: strings.Join(slices.Compact(types), ", "), What: fmt.Sprintf(what, a...)}
}

// notEnabled is a replayed path's step that is not enabled where it
// comes.
type notEnabled struct{ msg string }

func (e *notEnabled) Error() string { return e.msg }

// diverged turns the failure of a replay of a path the search itself
// found into a ContractError (other errors are returned as they are).
func diverged(cfg Config, what string, err error) error {
	var ne *notEnabled
	if errors.As(err, &ne) {
		return contract(cfg, "%s does not replay from the initial state: %v", what, err)
	}
	return err
}

// confirm checks the contract where the search reports viol at next,
// reached by p: each node state of next still has the key it was
// interned under, and p replayed from the initial state with nodes of
// its own (a fresh interner: no node object the search stored) breaks
// the same property at its end, with the same node states there (but
// where the search shifts clocks or renames: states it does not store).
func (s *searcher) confirm(next *state, p []Trans, viol *Violation) error {
	m := s.m
	for j, id := range next.nodes {
		if !next.alive(j + 1) {
			continue
		}
		if got := m.in.ops.AppendKey([]byte{byte(j + 1)}, m.nodeAt(id)); string(got) != m.in.keyAt(id) {
			return contract(s.cfg, "node %d's state at the end of %s changed after it was stored, though no step was given to it", j+1, FormatPath(p))
		}
	}
	v, rr, err := judgePath(s.cfg, nil, p)
	if err != nil {
		return diverged(s.cfg, "the path "+FormatPath(p), err)
	}
	if v == nil || v.Property != viol.Property {
		return contract(s.cfg, "the path %s breaks %s in the search, and not when it is replayed from the initial state", FormatPath(p), viol.Property)
	}
	if m.shifting || s.sym != nil {
		return nil
	}
	for j, id := range next.nodes {
		if next.alive(j+1) && rr.end.alive(j+1) && m.in.keyAt(id) != rr.in.keyAt(rr.end.nodes[j]) {
			return contract(s.cfg, "node %d's state at the end of %s is another when the path is replayed from the initial state", j+1, FormatPath(p))
		}
	}
	return nil
}

// judgePath replays p from the initial state, with the interner in (nil:
// a fresh one), through every property of the run, and returns the
// violation it ends in: the one its last step reported, else, at a
// terminal state, the first property broken there (under Config.Only,
// that property only).
func judgePath(cfg Config, in *interner, p []Trans) (*Violation, ReplayResult, error) {
	var set *check.Set
	var sink func(*trace.Event)
	if cfg.Checks != nil {
		set = check.NewSet(cfg.Checks()...)
		sink = func(e *trace.Event) { set.Observe(e) }
	}
	rr, err := replay(cfg, in, p, sink)
	if err != nil {
		return nil, rr, err
	}
	if v := rr.last; v != nil && (cfg.Only == "" || v.Property == cfg.Only) {
		return v, rr, nil
	}
	if set == nil || !rr.Terminated {
		return nil, rr, nil
	}
	for _, v := range set.Finish(check.End{Terminated: rr.Terminated, Messages: rr.Messages}) {
		if id := check.ID(v.Property); !v.OK && (cfg.Only == "" || id == cfg.Only) {
			return &Violation{Property: id, Detail: v.Detail}, rr, nil
		}
	}
	return nil, rr, nil
}

// takeBroken returns, once, the broken contract a step of m met where it
// could not return an error (a renaming of identifiers), nil if none.
func (m *machine) takeBroken(cfg Config) error {
	if m.broken == "" {
		return nil
	}
	what := m.broken
	m.broken = ""
	return contract(cfg, "%s", what)
}
