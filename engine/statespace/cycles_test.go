package statespace

import (
	"context"
	"testing"
)

// A search with Cycles counts no cycle where there is none, with the
// reduction or without: the greeters' runs all end.
func TestCyclesNoneWhereRunsEnd(t *testing.T) {
	for _, por := range []bool{true, false} {
		cfg := greeters(3, false)
		cfg.POR, cfg.Cycles = por, true
		res, err := Search(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exhausted || res.Cyclic != 0 || res.Terminal != 8 {
			t.Errorf("por=%v: exhausted %v, %d cyclic components, %d terminal states, want 0 and 8", por, res.Exhausted, res.Cyclic, res.Terminal)
		}
	}
}
