package explore_test

import (
	"slices"
	"testing"

	"ringlab/engine/explore"
	"ringlab/engine/lang"
	"ringlab/engine/node"
)

// An Explorer in Portuguese says its steps and the words Show writes
// itself ("none") in Portuguese; the algorithm's own (its states, its
// messages, its field names) stay as they are; in English as before.
func TestExplorerInLang(t *testing.T) {
	cfg := mutexConfig(t, "central", map[string]any{"nodes": 3})
	for _, c := range []struct {
		l           lang.Lang
		step, empty string
	}{
		{lang.PT, "dar a node 2 o comando request", "nenhum"},
		{lang.EN, "give node 2 its command request", "none"},
	} {
		x, err := explore.NewExplorer(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		x.Lang = c.l
		v, err := x.At(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(v.Steps, func(s explore.Step) bool { return s.Words == c.step }) {
			t.Errorf("%s: no step %q among %+v", c.l, c.step, v.Steps)
		}
		if !slices.Contains(v.Nodes[0].Shown.Fields, node.Field{Name: "queue", Value: c.empty}) {
			t.Errorf("%s: the coordinator's empty queue is not %q: %+v", c.l, c.empty, v.Nodes[0].Shown)
		}
	}
}
