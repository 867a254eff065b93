package explore_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"ringlab/engine/explore"
	"ringlab/engine/statespace"
	"ringlab/engine/trace"
)

// analyze is the whole graph of cfg (Explorer.Analyze), with the promises
// tracked (statespace.Config.Liveness) so that the wait and the messages per entry
// are computed.
func analyze(t *testing.T, cfg statespace.Config) *explore.Fates {
	t.Helper()
	cfg.Liveness = true
	x, err := explore.NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x.AnalyzeExtremes(context.Background(), 500_000)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Ricart-Agrawala with one request a node at N = 3 sends exactly 2(N-1)
// messages per entry over every schedule, N-1 REQUESTs and N-1 REPLYs:
// the fewest and most, in total and by type, are 12, 6 and 6, and each
// printed path replays to that many messages of the type. The most in
// flight at once is at least the six REQUESTs of three requests made
// before any is delivered, and the paths to the most in flight (and on
// one link) replay to a state with that many.
func TestExtremesByTypeAndInFlight(t *testing.T) {
	cfg := mutexConfig(t, "ricart-agrawala", map[string]any{"nodes": 3, "requests": 1})
	f := analyze(t, cfg)
	e, ok := f.Extremes()
	if !ok || e.Fewest != 12 || e.Most != 12 {
		t.Fatalf("fewest %d, most %d (ok %v), want 12 and 12", e.Fewest, e.Most, ok)
	}
	if len(e.ByType) != 2 || e.ByType[0].Type != "REPLY" || e.ByType[1].Type != "REQUEST" {
		t.Fatalf("by type: %+v, want REPLY and REQUEST", e.ByType)
	}
	for _, te := range e.ByType {
		if te.Fewest != 6 || te.Most != 6 {
			t.Errorf("%s: fewest %d, most %d, want 6 and 6", te.Type, te.Fewest, te.Most)
		}
		for _, p := range [][]statespace.Trans{te.FewestPath, te.MostPath} {
			rr, err := statespace.Replay(cfg, p, nil)
			if err != nil || !rr.Terminated || rr.ByType[te.Type] != 6 {
				t.Errorf("%s: %s sends %d (ends %v, %v), want 6", te.Type, statespace.FormatPath(p), rr.ByType[te.Type], rr.Terminated, err)
			}
		}
	}
	if e.InFlight < 6 || e.OnLink < 1 {
		t.Errorf("in flight %d, on one link %d: want at least 6 and 1", e.InFlight, e.OnLink)
	}
	x, err := explore.NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := x.At(e.InFlightPath)
	if err != nil || len(v.InFlight) != e.InFlight {
		t.Errorf("%s reaches %d in flight (%v), want %d", statespace.FormatPath(e.InFlightPath), len(v.InFlight), err, e.InFlight)
	}
	v, err = x.At(e.OnLinkPath)
	if err != nil {
		t.Fatal(err)
	}
	on := 0
	for _, fl := range v.InFlight {
		if fl.From == e.From && fl.To == e.To {
			on++
		}
	}
	if on != e.OnLink {
		t.Errorf("%s reaches %d on %d->%d, want %d", statespace.FormatPath(e.OnLinkPath), on, e.From, e.To, e.OnLink)
	}
	// a shortest path: no state nearer the start has as many in flight
	for k := range e.InFlightPath {
		if v, _ := x.At(e.InFlightPath[:k]); v != nil && len(v.InFlight) >= e.InFlight {
			t.Errorf("after %d steps already %d in flight", k, len(v.InFlight))
		}
	}
}

// overtaken replays path and counts the entries of nodes other than
// node, and node's own.
func overtaken(t *testing.T, cfg statespace.Config, path []statespace.Trans, node int) (others, own int) {
	t.Helper()
	_, err := statespace.Replay(cfg, path, func(e *trace.Event) {
		if e.Kind == trace.KindEnterCS {
			if e.Node == node {
				own++
			} else {
				others++
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return others, own
}

// The longest wait over the whole graph is the liveness pass's bypass
// (the most promises of others kept while one stays owed, over every
// schedule), computed by another pass over another graph; its path
// replays to a wait with that many entries by others and none by the
// waiting node.
func TestLongestWaitIsTheBypass(t *testing.T) {
	for _, c := range []struct {
		name string
		p    map[string]any
	}{
		{"ricart-agrawala", map[string]any{"nodes": 3, "requests": 1}},
		{"central", map[string]any{"nodes": 3, "requests": 1}},
		{"central", map[string]any{"nodes": 3, "requests": 0}},
		{"token-ring", map[string]any{"nodes": 3, "requests": 0}},
	} {
		cfg := mutexConfig(t, c.name, c.p)
		e, _ := analyze(t, cfg).Extremes()
		if e.Wait == nil {
			t.Fatalf("%s %v: no wait", c.name, c.p)
		}
		lc := cfg
		lc.Liveness, lc.POR = true, false
		res, err := statespace.Search(context.Background(), lc)
		if err != nil {
			t.Fatal(err)
		}
		most := int64(-1)
		for _, b := range res.Live.Bypass {
			most = max(most, b.Most)
		}
		if most != e.Wait.Most {
			t.Errorf("%s %v: longest wait %d (node %d), the liveness pass's bypass %d", c.name, c.p, e.Wait.Most, e.Wait.Node, most)
		}
		if e.Wait.Most == statespace.Unbounded {
			continue
		}
		before, ownBefore := overtaken(t, cfg, e.Wait.Path[:e.Wait.Start], e.Wait.Node)
		all, own := overtaken(t, cfg, e.Wait.Path, e.Wait.Node)
		if int64(all-before) != e.Wait.Most || own != ownBefore {
			t.Errorf("%s %v: %s: %d entries by others after step %d, want %d", c.name, c.p, statespace.FormatPath(e.Wait.Path), all-before, e.Wait.Start, e.Wait.Most)
		}
	}
}

// On an infinite workload the messages per entry are judged over cycles: the
// central coordinator's every cycle sends 4 messages per entry, as its theory
// says (mutex compare's "4"), and the cycle printed replays to as many messages
// per entry; the token ring's fewest is 1 (the token passed to the next node,
// who enters), and a cycle that passes the token while no request is taken
// (unfair to the commands) makes its most unbounded.
func TestPerEntryOverCycles(t *testing.T) {
	for _, c := range []struct {
		name                        string
		fewest, fewestOf, most, per int64
	}{
		{"central", 4, 1, 4, 1},
		{"token-ring", 1, 1, statespace.Unbounded, 0},
	} {
		cfg := mutexConfig(t, c.name, map[string]any{"nodes": 3, "requests": 0})
		pe, ok := analyze(t, cfg).PerEntry()
		if !ok || pe.FewestMsgs != c.fewest || pe.FewestEntries != c.fewestOf || pe.MostMsgs != c.most || pe.MostEntries != c.per {
			t.Fatalf("%s: %+v (ok %v)", c.name, pe, ok)
		}
		count := func(p []statespace.Trans) (msgs, entries int64) {
			rr, err := statespace.Replay(cfg, p, func(e *trace.Event) {
				if e.Kind == trace.KindEnterCS {
					entries++
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			return rr.Messages, entries
		}
		m0, e0 := count(pe.FewestPrefix)
		m1, e1 := count(append(pe.FewestPrefix[:len(pe.FewestPrefix):len(pe.FewestPrefix)], pe.FewestCycle...))
		if (m1-m0)*pe.FewestEntries != (e1-e0)*pe.FewestMsgs || e1 == e0 {
			t.Errorf("%s: the cycle %s sends %d messages for %d entries, want %d/%d", c.name, statespace.FormatPath(pe.FewestCycle), m1-m0, e1-e0, pe.FewestMsgs, pe.FewestEntries)
		}
	}
}

// With the clock shift the whole graph of an infinite workload whose
// clocks grow is finite: Ricart-Agrawala asking for ever sends exactly
// 2(N-1) messages per entry on every cycle, Lamport's 3(N-1) (the fewest
// and the most over every cycle with an entry), and the cycle printed
// replays to that many. N = 2 here; RINGLAB_BIG=1 adds Ricart-Agrawala at
// N = 3 (151,979 states, about 5 s): 4 per entry.
func TestPerEntryShiftedClocks(t *testing.T) {
	cases := []struct {
		name  string
		nodes int
		per   int64
	}{{"ricart-agrawala", 2, 2}, {"lamport", 2, 3}}
	if os.Getenv("RINGLAB_BIG") == "1" {
		cases = append(cases, struct {
			name  string
			nodes int
			per   int64
		}{"ricart-agrawala", 3, 4})
	}
	for _, c := range cases {
		cfg := mutexConfig(t, c.name, map[string]any{"nodes": c.nodes, "requests": 0})
		cfg.Liveness = true
		x, err := explore.NewExplorer(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x.AnalyzeExtremes(context.Background(), 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		pe, ok := f.PerEntry()
		if !ok || pe.FewestMsgs != c.per || pe.FewestEntries != 1 || pe.MostMsgs != c.per || pe.MostEntries != 1 {
			t.Fatalf("%s N=%d: %+v (ok %v), want %d per entry on every cycle", c.name, c.nodes, pe, ok, c.per)
		}
		var entries int64
		count := func(p []statespace.Trans) int64 {
			entries = 0
			rr, err := statespace.Replay(cfg, p, func(e *trace.Event) {
				if e.Kind == trace.KindEnterCS {
					entries++
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			return rr.Messages
		}
		m0 := count(pe.FewestPrefix)
		e0 := entries
		m1 := count(append(slices.Clone(pe.FewestPrefix), pe.FewestCycle...))
		if entries == e0 || m1-m0 != c.per*(entries-e0) {
			t.Errorf("%s N=%d: the cycle sends %d for %d entries", c.name, c.nodes, m1-m0, entries-e0)
		}
	}
}
