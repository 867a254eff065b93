package registrytest_test

import (
	"fmt"
	"testing"

	"ringlab/engine"
	"ringlab/engine/demo"
	"ringlab/engine/registrytest"
)

// build makes the System of one algorithm from its command-line arguments;
// an area's own build parses them as its commands do.
func build(name string, args []string) (engine.System, error) {
	if name != "ping" || len(args) != 0 {
		return engine.System{}, fmt.Errorf("no algorithm %s %v", name, args)
	}
	return demo.System(3, 6, 0), nil
}

// Sweep belongs in a test of the package that lists the algorithms: it
// runs each one under many seeds and faults and fails the test unless its
// message registry lists exactly the types its nodes send, each of which
// survives the broker's encoding. It needs the test's *testing.T, so this
// example is compiled but not run.
func ExampleSweep() {
	testRegistries := func(t *testing.T) {
		registrytest.Sweep(t, []string{"ping"}, map[string][][]string{"ping": {{}}}, build)
	}
	_ = testRegistries
}
