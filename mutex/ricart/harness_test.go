package ricart

import (
	"fmt"
	"testing"

	"ringlab/mutex/internal/mutextest"
)

// harness is the area's shared test network (mutextest.Net) over this
// package's nodes: the transcript names nodes by id ("N32"), and an entry is
// keyed by its request's (T, id).
type harness = mutextest.Net[*Node]

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	var h *harness
	h = mutextest.Build[*Node](t, Factory, cfg, cfg.N, mutextest.Options{
		Name: func(i int) string { return fmt.Sprintf("N%d", h.Nodes[i].id) },
		Key: func(i int) [2]int {
			st := h.Nodes[i].Status()
			return [2]int{st.RequestT, st.ID}
		},
	})
	return h
}
