package statespace_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"ringlab/engine/statespace"
)

// walk visits every state a Machine reaches from the initial state, by
// Key, breadth first, and calls visit with each; past 100,000 states it
// fails the test.
func walk(t *testing.T, m *statespace.Machine, visit func(statespace.State)) int {
	t.Helper()
	s0 := m.Initial()
	seen := map[uint64]bool{m.Key(s0): true}
	for q := []statespace.State{s0}; len(q) > 0; q = q[1:] {
		visit(q[0])
		for _, tr := range m.Enabled(q[0], nil) {
			next, _, err := m.Step(q[0], tr)
			if err != nil {
				t.Fatal(err)
			}
			if k := m.Key(next); !seen[k] {
				seen[k] = true
				q = append(q, next)
			}
			if len(seen) > 100_000 {
				t.Fatal("more than 100,000 states")
			}
		}
	}
	return len(seen)
}

// A Machine keys the states as the search keeps them: stepping every
// transition reaches as many distinct keys as the search without the
// partial-order reduction keeps states, on a finite workload and on one
// with no end, whose clocks only the reduction keeps finite.
func TestMachineKeysTheStatesTheSearchKeeps(t *testing.T) {
	for _, c := range []struct {
		name   string
		params map[string]any
	}{
		{"ricart-agrawala", map[string]any{"nodes": 2, "requests": 1}},
		{"ricart-agrawala", map[string]any{"nodes": 2, "requests": 0}},
		{"lamport", map[string]any{"nodes": 2, "requests": 0}},
	} {
		cfg := mutexConfig(t, c.name, c.params, 0)
		cfg.POR, cfg.Workers = false, 1
		res, err := statespace.Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		m, err := statespace.NewMachine(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := walk(t, m, func(statespace.State) {}); int64(got) != res.Distinct {
			t.Errorf("%s %v: the Machine reaches %d keys, the search keeps %d states", c.name, c.params, got, res.Distinct)
		}
	}
}

// A Machine names every promise it reports owed: Ricart-Agrawala's
// requests to their nodes, the kit's promises that the run neither
// deadlocks nor goes on for ever to the run as a whole.
func TestMachineNamesItsPromises(t *testing.T) {
	cfg := mutexConfig(t, "ricart-agrawala", map[string]any{"nodes": 2, "requests": 1}, 0)
	cfg.Liveness = true
	m, err := statespace.NewMachine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	walk(t, m, func(s statespace.State) {
		for b := range 64 {
			if m.Owed(s)>>b&1 == 0 {
				continue
			}
			p, ok := m.Promise(b)
			if w := fmt.Sprintf("%s to %d", p.Property, p.Node); !ok {
				t.Fatalf("bit %d is owed but stands for no promise", b)
			} else if !slices.Contains(named, w) {
				named = append(named, w)
			}
		}
	})
	slices.Sort(named)
	if want := []string{"no deadlock to 0", "no starvation to 1", "no starvation to 2", "termination to 0"}; !slices.Equal(named, want) {
		t.Errorf("promises owed: %q, want %q", named, want)
	}
}

// A Machine shows a state as values: a node's pending command, the
// command a step gives, and the message it sends in flight, which the
// delivery then takes.
func TestMachineShowsAStateAsValues(t *testing.T) {
	cfg := mutexConfig(t, "ricart-agrawala", map[string]any{"nodes": 2, "requests": 1}, 0)
	m, err := statespace.NewMachine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Initial()
	if ns := m.Nodes(s); len(ns) != 2 || !ns[0].Alive || len(ns[0].Pending) != 1 || ns[0].Pending[0] != "request" {
		t.Fatalf("initial nodes: %+v", ns)
	}
	give, ok := m.Find(s, statespace.Trans{Kind: statespace.Command, Node: 1})
	if _, cmd := m.Input(s, give); !ok || cmd != "request" {
		t.Fatalf("c1: %v enabled, gives %q", ok, cmd)
	}
	s, _, err = m.Step(s, give)
	if err != nil {
		t.Fatal(err)
	}
	fl := m.AppendFlights(nil, s)
	if len(m.Sent()) != 1 || len(fl) != 1 || fl[0].From != 1 || fl[0].To != 2 || fl[0].Msg.Type() != "REQUEST" {
		t.Fatalf("after c1: sent %v, in flight %+v", m.Sent(), fl)
	}
	deliver, ok := m.Find(s, statespace.Trans{Kind: statespace.Deliver, From: 1, Node: 2})
	if msg, _ := m.Input(s, deliver); !ok || msg != fl[0].Msg {
		t.Errorf("d1-2 delivers %v, in flight %v", msg, fl[0].Msg)
	}
}
