package demo_test

import (
	"testing"

	"ringlab/engine/demo"
	"ringlab/engine/vet"
)

// The demo keeps the contract every tool relies on.
func TestDemoPassesVet(t *testing.T) {
	alg := demo.Algorithm()
	vet.Test(t, alg, alg.Defaults())
}
