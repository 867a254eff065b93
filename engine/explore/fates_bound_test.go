package explore_test

import (
	"context"
	"testing"

	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// searchAlike is the number of distinct states statespace.Search keeps for cfg
// without the partial-order reduction, as the Explorer's analysis sees
// every transition.
func searchAlike(t *testing.T, cfg statespace.Config) int {
	t.Helper()
	cfg.POR, cfg.Workers = false, 1
	res, err := statespace.Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return int(res.Distinct)
}

// initialFate analyses cfg's whole space (at most limit states) and
// returns the fate of the initial state and the states analysed.
func initialFate(t *testing.T, cfg statespace.Config, limit int) (explore.Fate, int, error) {
	t.Helper()
	x, err := explore.NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x.Analyze(context.Background(), limit)
	if err != nil {
		return 0, 0, err
	}
	v, err := x.At(nil)
	if err != nil {
		t.Fatal(err)
	}
	fate, ok := f.Fate(v.Key)
	if !ok {
		t.Fatal("the initial state has no fate")
	}
	return fate, f.States, nil
}

// The browser's analysis keeps the states the search keeps: a workload
// with no end, whose clocks grow, is as finite for it as for the search,
// with the same count.
func TestAnalysisReducesAsTheSearch(t *testing.T) {
	cfg := mutexConfig(t, "ricart-agrawala", map[string]any{"nodes": 2, "requests": 0})
	fate, n, err := initialFate(t, cfg, 100_000)
	if err != nil {
		t.Fatalf("the analysis of a workload with no end: %v", err)
	}
	if want := searchAlike(t, cfg); n != want {
		t.Errorf("analysed %d states, the search keeps %d", n, want)
	}
	if fate != explore.Safe {
		t.Errorf("Ricart-Agrawala's initial state: %v, want safe", fate)
	}
}

// A state constraint bounds the analysis as it bounds the search: the
// quorum's requests pile up on links without end, --max-flight 1 stops
// them, and since states beyond the bound are not explored, no state from
// which one is reachable is called safe.
func TestAnalysisWithinTheConstraint(t *testing.T) {
	cfg := mutexConfig(t, "quorum", map[string]any{"coordinators": 2, "quorum": 2, "nodes": 2, "requests": 0, "retry-timeout": int64(3)})
	if _, _, err := initialFate(t, cfg, 20_000); err == nil {
		t.Fatal("without a bound the quorum's space ended within 20,000 states; this test needs one that does not")
	}
	cfg.MaxFlight = 1
	fate, n, err := initialFate(t, cfg, 200_000)
	if err != nil {
		t.Fatalf("within --max-flight 1: %v", err)
	}
	if want := searchAlike(t, cfg); n != want {
		t.Errorf("analysed %d states within the bound, the search counts %d", n, want)
	}
	if fate != explore.Undecided {
		t.Errorf("the initial state within the bound: %v, want undecided (states beyond it are reachable)", fate)
	}
	// A bound no state passes decides as no bound does.
	cfg = mutexConfig(t, "central", map[string]any{"nodes": 3, "requests": 1})
	free, _, err := initialFate(t, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxFlight = 50
	if bound, _, err := initialFate(t, cfg, 0); err != nil || bound != free || free != explore.Safe {
		t.Errorf("central: %v without a bound, %v (%v) within one no state passes; want safe for both", free, bound, err)
	}
}
