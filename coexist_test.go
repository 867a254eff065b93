package main

import (
	"os/exec"
	"strings"
	"testing"

	"ringlab/engine/amqp/amqptest"
)

// The standing topology and one-process runs on one broker, with no
// teardown between: `ringlab amqp setup`, a one-process run on the ring's
// names (it finds the queues standing, uses them and leaves them), five
// node processes, a one-process run again; every step succeeds, and the
// five queues are still there for a teardown to delete at the end.
func TestOneProcessRunsBesideTheStandingTopology(t *testing.T) {
	url := amqptest.BrokerURL(t)
	bin := binary(t)
	setupRing(t, bin, url)
	oneProcess := func(what string) {
		t.Helper()
		cmd := exec.Command(bin, "election", "ring", "--runtime", "amqp", "--url", url, "--lang", "pt")
		cmd.Env = testEnv()
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "✓ Líder eleito: Node 4 (ID=1)") {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
	}
	oneProcess("the one-process run after setup")
	dir := t.TempDir()
	var procs []*nodeProc
	for i := 5; i >= 1; i-- {
		procs = append(procs, startNode(t, bin, url, dir, i, false, nil))
	}
	for _, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("node %d: %v\n%s%s", p.index, err, p.out.String(), p.err.String())
		}
	}
	if out := procs[4].out.String(); !strings.Contains(out, "✓ Líder eleito: Node 4 (ID=1)") {
		t.Errorf("the node processes' initiator:\n%s", out)
	}
	oneProcess("the one-process run after the node processes")
	cmd := exec.Command(bin, "amqp", "teardown", "--url", url)
	cmd.Env = testEnv()
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "and 5 node queue(s)") {
		t.Errorf("the standing queues after the runs: %v\n%s", err, out)
	}
}
