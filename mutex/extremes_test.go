package mutex

import (
	"context"
	"testing"

	"ringlab/engine"
	"ringlab/engine/explore"
	"ringlab/engine/statespace"
)

// Ricart-Agrawala sends exactly 2(N-1) messages per entry on every
// schedule, not only on the ones a run draws: over the whole state space
// (every interleaving, no reduction), the fewest and the most messages a
// complete run sends are both N*requests*2(N-1). The course variant that
// also broadcasts RELEASE sends exactly 3(N-1).
func TestRicartAgrawalaMessagesPerEntryOverEverySchedule(t *testing.T) {
	for _, tc := range []struct {
		n, requests int
		broadcast   bool
	}{{2, 1, false}, {2, 3, false}, {3, 1, false}, {3, 1, true}} {
		alg, _ := engine.Find(Algorithms(), "ricart-agrawala")
		p := alg.ForCheck().Defaults()
		if err := p.Give("nodes", tc.n); err != nil {
			t.Fatal(err)
		}
		if err := p.Give("requests", tc.requests); err != nil {
			t.Fatal(err)
		}
		if err := p.Give("release-broadcast", tc.broadcast); err != nil {
			t.Fatal(err)
		}
		sys, cfg, err := statespace.For(alg, p, engine.Env{Runtime: "sim", MaxDelay: 1})
		if err != nil {
			t.Fatal(err)
		}
		x, err := explore.NewExplorer(cfg, sys.Names)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x.Analyze(context.Background(), 5_000_000)
		if err != nil {
			t.Fatal(err)
		}
		v, err := x.At(nil)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, ok := f.MessagesLeft(v.Key)
		per := 2
		if tc.broadcast {
			per = 3
		}
		want := int64(tc.n * tc.requests * per * (tc.n - 1))
		if !ok || lo != want || hi != want {
			t.Errorf("N=%d, %d requests each (release broadcast %v): %d..%d messages over every schedule (ends: %v), want exactly %d",
				tc.n, tc.requests, tc.broadcast, lo, hi, ok, want)
		}
	}
}
