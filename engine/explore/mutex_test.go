package explore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ringlab/engine"
	"ringlab/engine/explore"
	"ringlab/engine/sim"
	"ringlab/engine/statespace"
	"ringlab/mutex"
)

// mutexConfig is the exhaustive check of mutex's algorithm name, its
// defaults overridden by params, with no depth bound.
func mutexConfig(t *testing.T, name string, params map[string]any) statespace.Config {
	t.Helper()
	alg, ok := engine.Find(mutex.Algorithms(), name)
	if !ok {
		t.Fatalf("mutex has no algorithm %s", name)
	}
	p := alg.ForCheck().Defaults()
	for k, v := range params {
		if err := p.Give(k, v); err != nil {
			t.Fatal(err)
		}
	}
	_, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The analysis's distance to a violation is the shortest search's: from
// the initial state of the coordinator with a too-short grant timeout, and
// from each state along that shortest path, one step nearer each time;
// the path's steps read as the steps list reads them, the coordinator's
// timer by its meaning.
func TestToViolationIsShortest(t *testing.T) {
	cfg := mutexConfig(t, "central", map[string]any{"nodes": 3, "grant-timeout": int64(10)})
	names := func(i int) string { return [...]string{"", "coordinator", "P1", "P2"}[i] }
	x, err := explore.NewExplorer(cfg, names)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x.Analyze(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	path, v := shortestViolation(t, x)
	for i, k := range v.Keys {
		if d, ok := f.ToViolation(k); !ok || d != len(path)-i {
			t.Errorf("state %d of %s: %d steps to a violation (%v), want %d", i, statespace.FormatPath(path), d, ok, len(path)-i)
		}
	}
	if len(v.PathWords) != len(path) || !slices.ContainsFunc(v.PathWords, func(w string) bool { return w == "fire coordinator's timer 1, the grant timeout" }) {
		t.Errorf("%s in words: %q, want every step, the grant timeout named", statespace.FormatPath(path), v.PathWords)
	}
}

// Under the random policy a link keeps a set, its head not the message
// sent first: after P1's ACQUIRE and then its ACK to P2, the ACK is at
// the head (K 0), and Sent still says the ACQUIRE went first.
func TestFlightsInTheOrderSent(t *testing.T) {
	cfg := mutexConfig(t, "lamport", map[string]any{"nodes": 2})
	cfg.Policy = sim.PolicyRandom
	x, err := explore.NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, err := statespace.ParsePath("c1,c2,d2-1", 2)
	if err != nil {
		t.Fatal(err)
	}
	v, err := x.At(path)
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]int64{}
	for _, f := range v.InFlight {
		if f.From == 1 && f.To == 2 {
			sent[f.Text[:3]] = f.Sent
		}
	}
	if len(sent) != 2 || sent["ACQ"] == 0 || sent["ACQ"] >= sent["ACK"] {
		t.Errorf("on the link P1 -> P2: %+v; want the ACQUIRE sent before the ACK", v.InFlight)
	}
}

// The token ring names its timer as central does: the shortest way to
// two tokens fires a regeneration timeout, and the path says so.
func TestTokenRingNamesItsTimer(t *testing.T) {
	cfg := mutexConfig(t, "token-ring", map[string]any{"nodes": 3, "regen-timeout": int64(5)})
	x, err := explore.NewExplorer(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, v := shortestViolation(t, x)
	if !slices.ContainsFunc(v.PathWords, func(w string) bool { return strings.HasSuffix(w, "timer 1, the regeneration timeout") }) {
		t.Errorf("%s in words: %q, want the regeneration timeout named", statespace.FormatPath(path), v.PathWords)
	}
}

// shortestViolation is x's shortest path to a violation, which must
// exist, and the view at its end.
func shortestViolation(t *testing.T, x *explore.Explorer) ([]statespace.Trans, *explore.View) {
	t.Helper()
	path, found, err := x.Shortest(context.Background(), nil, 0)
	if err != nil || !found {
		t.Fatalf("no violation found: %v", err)
	}
	v, err := x.At(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, v
}
