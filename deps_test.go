package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A user who imports only the node contract and the simulator pulls in no
// command line and no broker library: the engine's layers point down.
func TestNodeAndSimPullInNoCLIOrBroker(t *testing.T) {
	noDeps(t, []string{"./engine/node", "./engine/sim"}, "ringlab/engine/sim",
		"github.com/urfave/cli", "github.com/rabbitmq/amqp091-go", "ringlab/engine/cli", "ringlab/engine/amqp", "ringlab/engine/serve")
}

// Judging a run or a saved log needs no broker: the codec that types a
// logged message lives beside the log (trace.Codec), so engine/run and
// the trace package pull in neither the RabbitMQ runtime nor its client.
func TestRunAndLogPullInNoBroker(t *testing.T) {
	noDeps(t, []string{"./engine/run", "./engine/trace"}, "ringlab/engine/run",
		"github.com/rabbitmq/amqp091-go", "ringlab/engine/amqp")
}

// noDeps fails t if one of pkgs depends, directly or not, on a package
// whose path starts with one of banned; the list must name must, so that
// a `go list` that printed too little does not pass for a clean one.
func noDeps(t *testing.T, pkgs []string, must string, banned ...string) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: this test lists the packages' dependencies with `go list -deps`")
	}
	out, err := exec.Command(goBin, append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, must) {
		t.Fatalf("go list -deps printed too little to judge: %q", out)
	}
	for _, d := range deps {
		for _, b := range banned {
			if strings.HasPrefix(d, b) {
				t.Errorf("%s depend on %s", strings.Join(pkgs, " and "), d)
			}
		}
	}
}
