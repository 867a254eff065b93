package mutex

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"ringlab/engine/check"
	"ringlab/engine/explore"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
)

// everyPath explores cfg's space depth first with the whole history of
// the grant order: a node is a state together with everything the
// property holds (the waiting requests with the times and numbers they
// registered with, the grants and overtakings counted), so two paths
// meet only where no future can tell them apart, and every path is judged
// (by a replay through fresh properties, as a run judges its events). It
// stops each path at its first break of the grant order and returns how
// many nodes broke it and the fewest steps to one (0: none), after at
// most limit nodes.
func everyPath(t *testing.T, cfg statespace.Config, limit int) (broken, shortest, nodes int) {
	t.Helper()
	x, err := explore.NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(path []statespace.Trans)
	walk = func(path []statespace.Trans) {
		set := check.NewSet(cfg.Checks()...)
		if _, err := statespace.Replay(cfg, path, func(e *trace.Event) { set.Observe(e) }); err != nil {
			t.Fatalf("%s: %v", statespace.FormatPath(path), err)
		}
		v, err := x.At(path)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprint(v.Key, history(set))
		if seen[key] {
			return
		}
		seen[key] = true
		if nodes++; nodes > limit {
			t.Fatalf("more than %d nodes: too big a space for brute force", limit)
		}
		if slices.ContainsFunc(set.Violations, func(e trace.Event) bool { return check.ID(e.Property) == kit.IDGrantOrder }) {
			broken++
			if shortest == 0 || len(path) < shortest {
				shortest = len(path)
			}
			return
		}
		for _, s := range v.Steps {
			walk(append(slices.Clip(path), s.Trans))
		}
	}
	walk(nil)
	return broken, shortest, nodes
}

// history is everything the grant order of set holds, read field by field.
func history(set *check.Set) string {
	for _, p := range set.Properties {
		if g, ok := p.(*kit.GrantOrder); ok {
			r := reflect.ValueOf(g).Elem()
			return fmt.Sprint(r.FieldByName("pending"), r.FieldByName("crashed"), r.FieldByName("seq"),
				r.FieldByName("grants"), r.FieldByName("over"))
		}
	}
	panic("no grant order")
}

// The search judges the grant order on every path: over small spaces, it
// finds a break exactly where some path of the whole tree of paths (every
// interleaving, none merged) breaks it, and a path as short as the
// shortest such one; with and without the partial-order reduction, on
// one worker and on two. The grant order is a history: two paths to one
// state may differ in who asked first, which a search that judged one path
// per state missed (central favouring P1: no break found).
func TestGrantOrderOnEveryPath(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		policy sim.Policy
	}{
		{[]string{"central", "--nodes", "4", "--favour", "3"}, sim.PolicyFIFO},
		{[]string{"central", "--nodes", "4"}, sim.PolicyFIFO},
		{[]string{"central", "--nodes", "3", "--grant-timeout", "10"}, sim.PolicyFIFO},
		{[]string{"ricart-agrawala", "--nodes", "2", "--requests", "2"}, sim.PolicyFIFO},
		{[]string{"ricart-agrawala", "--nodes", "2", "--reply-timeout", "5"}, sim.PolicyFIFO},
		{[]string{"lamport", "--nodes", "2"}, sim.PolicyFIFO},
		{[]string{"lamport", "--nodes", "2"}, sim.PolicyRandom},
	} {
		cfg := checkConfig(t, tc.args...)
		cfg.Policy = tc.policy
		cfg.Only = kit.IDGrantOrder
		broken, shortest, nodes := everyPath(t, cfg, 200_000)
		for _, por := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				c := cfg
				c.POR, c.Workers = por, workers
				res, err := statespace.Search(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				found := res.Violation != nil && res.Violation.Property == kit.IDGrantOrder
				if found != (broken > 0) || found && len(res.Path) != shortest || !found && !res.Exhausted {
					t.Errorf("%v (por %v, %d workers): search found a break %v after %d steps (exhausted %v); "+
						"%d nodes of the whole history break it, the first after %d steps",
						tc.args, por, workers, found, len(res.Path), res.Exhausted, broken, shortest)
				}
			}
		}
		t.Logf("%v: %d nodes, %d break the grant order, the first after %d steps", tc.args, nodes, broken, shortest)
	}
}
