package explore_test

import (
	"testing"

	"ringlab/engine"
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
