package main

// Run: go test -run '^$' -bench BenchmarkKeys -count 5 .
// Compare keys=hand with keys=derived per algorithm (benchstat, or medians).

import (
	"context"
	"slices"
	"testing"

	"ringlab/engine"
	"ringlab/engine/check"
	rcli "ringlab/engine/cli"
	"ringlab/engine/statespace"
)

// keysCases are the exhaustive checks BenchmarkKeys runs: every shipped
// algorithm of mutex and election, on parameters whose search takes
// between 0.2 s and 3 s on one worker. anonymous stops at its
// uniqueness violation (an anonymous ring cannot elect), the same state
// both ways; bully's timers make its space endless, so it is cut at a
// depth.
var keysCases = []struct {
	area, algo string
	params     map[string]any // the algorithm's parameters given (--nodes 6: "nodes": 6)
	only       check.ID       // --property ("": every property)
	depth      int            // --max-depth (0: none)
}{
	{"mutex", "central", map[string]any{"nodes": 6}, "", 0},
	{"mutex", "token-ring", map[string]any{"nodes": 7}, "", 0},
	{"mutex", "quorum", map[string]any{"quorum": 3}, "", 0},
	{"mutex", "ricart-agrawala", map[string]any{"nodes": 3, "requests": 2}, check.IDMutualExclusion, 0},
	{"mutex", "lamport", map[string]any{"nodes": 3}, "", 0},
	{"mutex", "maekawa", map[string]any{"nodes": 3, "requests": 2}, "", 0},
	{"election", "ring", map[string]any{"nodes": 6, "initiators": "all"}, "", 0},
	{"election", "anonymous", map[string]any{"nodes": 10, "initiators": "all"}, "", 0},
	{"election", "idlist", nil, "", 0},
	{"election", "chang-roberts", map[string]any{"nodes": 8}, "", 0},
	{"election", "franklin", nil, "", 0},
	{"election", "bully", map[string]any{"nodes": 4}, check.IDTermination, 10},
	{"election", "yoyo", nil, "", 0},
}

// BenchmarkKeys runs the exhaustive check of every shipped algorithm
// (keysCases) with the partial-order reduction on, on one worker, once
// with the nodes' own Clone and AppendKey where they have them
// (keys=hand) and once with the copy and key the engine derives from
// their values (keys=derived, Config.Derived), the rest of the Config
// the same. It reports the states a search visits and the memory per
// state (B/state: Result.MemBytes over the distinct states). An algorithm
// without a Clone and AppendKey of its own (ring, anonymous, idlist) runs
// the derived ones in both rows: the gap between them is the noise of the
// machine, the floor under which no gain counts.
func BenchmarkKeys(b *testing.B) {
	for _, c := range keysCases {
		for _, derived := range []bool{false, true} {
			keys := map[bool]string{false: "hand", true: "derived"}[derived]
			b.Run("algo="+c.algo+"/keys="+keys, func(b *testing.B) {
				cfg := keysConfig(b, c.area, c.algo, c.params)
				cfg.POR, cfg.Workers, cfg.Derived = true, 1, derived
				cfg.Only, cfg.MaxDepth = c.only, c.depth
				b.ReportAllocs()
				var res statespace.Result
				for b.Loop() {
					var err error
					if res, err = statespace.Search(context.Background(), cfg); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Distinct), "states/op")
				b.ReportMetric(float64(res.MemBytes)/float64(res.Distinct), "B/state")
			})
		}
	}
}

// keysConfig is the search `ringlab AREA check ALGO` makes with params
// given, without the check's own flags (the caller sets them).
func keysConfig(tb testing.TB, area, name string, params map[string]any) statespace.Config {
	tb.Helper()
	i := slices.IndexFunc(areas(), func(a rcli.Area) bool { return a.Name == area })
	alg, ok := engine.Find(areas()[max(i, 0)].Algorithms, name)
	if i < 0 || !ok {
		tb.Fatalf("no algorithm %s %s", area, name)
	}
	ps := alg.ForCheck().Defaults() // the check's own, smaller defaults
	for k, v := range params {
		if err := ps.Give(k, v); err != nil {
			tb.Fatal(err)
		}
	}
	_, cfg, err := statespace.For(alg, ps, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}
