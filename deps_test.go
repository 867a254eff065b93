package main

import (
	"os/exec"
	"strings"
	"testing"
)

// A user who imports only the node contract and the simulator pulls in no
// command line and no broker library: the engine's layers point down.
func TestNodeAndSimPullInNoCLIOrBroker(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: this test lists the packages' dependencies with `go list -deps`")
	}
	out, err := exec.Command(goBin, "list", "-deps", "./engine/node", "./engine/sim").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !strings.Contains(string(out), "ringlab/engine/sim") {
		t.Fatalf("go list -deps printed too little to judge: %q", out)
	}
	for _, d := range deps {
		for _, banned := range []string{"github.com/urfave/cli", "github.com/rabbitmq/amqp091-go", "ringlab/engine/cli", "ringlab/engine/amqp", "ringlab/engine/serve"} {
			if strings.HasPrefix(d, banned) {
				t.Errorf("engine/node and engine/sim depend on %s", d)
			}
		}
	}
}
