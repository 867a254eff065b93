package registrytest_test

import (
	"testing"

	"ringlab/engine/registrytest"
)

// TestSweepExample runs the example's sweep, so the example's algorithm
// and registry are proven complete, not only compiled.
func TestSweepExample(t *testing.T) {
	registrytest.Sweep(t, []string{"ping"}, map[string][][]string{"ping": {{}}}, build)
}
