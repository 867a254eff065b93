package cli

import (
	"testing"

	"ringlab/engine"
	"ringlab/engine/trace"
)

// The page shows the theory's figures when the System's figures need no
// run; figures that read what a run observed, or that fail without one,
// give nothing rather than a wrong number.
func TestTheoryForTheExplorer(t *testing.T) {
	fig := func(*trace.Summary) map[string]any {
		return map[string]any{"theory": "2n-1 = 7", "theory for these ids": "7 + 4", "rounds": "3"}
	}
	if got := theory(engine.System{Figures: fig}); got != "2n-1 = 7; 7 + 4" {
		t.Errorf("theory: %q", got)
	}
	if got := theory(engine.System{Figures: fig, Observe: func(*trace.Event) {}}); got != "" {
		t.Errorf("figures that depend on a run: %q", got)
	}
	boom := func(s *trace.Summary) map[string]any { return map[string]any{"theory": s.ByType["X"] * 0} }
	if got := theory(engine.System{Figures: boom}); got != "" {
		t.Errorf("a figure that is no string: %q", got)
	}
	var nilmap map[string]int
	panics := func(*trace.Summary) map[string]any { nilmap["x"] = 1; return nil }
	if got := theory(engine.System{Figures: panics}); got != "" {
		t.Errorf("figures that fail without a run: %q", got)
	}
	if got := theory(engine.System{}); got != "" {
		t.Errorf("no figures: %q", got)
	}
}
