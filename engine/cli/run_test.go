package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/cliutil"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/run"
	"ringlab/engine/sim"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func simOpts(format string, seed uint64) Options {
	return Options{Runtime: "sim", Seed: seed, Format: format, Latency: sim.Delay{Min: 1, Max: 1}, MaxSteps: 1_000_000}
}

func passSpec(n, hops int) engine.System {
	return engine.System{
		Name:       "demo pass",
		Nodes:      n,
		Factory:    nodetest.PassFactory(n, hops),
		Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Properties: []check.Property{check.Termination{}, &Token{Type: "TOKEN"}, check.MessageBound{Max: int64(hops), Formula: "hops"}},
	}
}

func execute(t *testing.T, spec engine.System, opts Options) (run.Outcome, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	o, err := Execute(context.Background(), spec, opts, "ringlab test", &out, &errb)
	return o, out.String(), err
}

func TestSameSeedSameBytes(t *testing.T) {
	for _, policy := range []sim.Policy{sim.PolicyFIFO, sim.PolicyRandom} {
		opts := simOpts("json", 42)
		opts.Policy = policy
		opts.Faults.Dup = 0.2
		_, a, errA := execute(t, passSpec(5, 23), opts) // a System serves one run
		_, b, errB := execute(t, passSpec(5, 23), opts)
		if errA != nil || errB != nil {
			// duplicates make extra tokens: the token checker says so
			if cliutil.Code(errA) != cliutil.ExitViolation || cliutil.Code(errB) != cliutil.ExitViolation {
				t.Fatalf("%v: %v / %v", policy, errA, errB)
			}
		}
		if a != b || a == "" {
			t.Fatalf("%v: the same seed gave different logs", policy)
		}
	}
}

func TestRandomPolicyInterleavesDifferently(t *testing.T) {
	// A flood over a complete graph has many messages in flight at once; under
	// the random policy different seeds must deliver them in different orders.
	topo := node.Complete(6)
	spec := engine.System{Name: "demo flood", Nodes: 6, Factory: nodetest.FloodFactory(topo),
		Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}}
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 10; seed++ {
		opts := simOpts("json", seed)
		opts.Policy = sim.PolicyRandom
		_, log, err := execute(t, spec, opts)
		if err != nil {
			t.Fatal(err)
		}
		recvs := []string{}
		for _, l := range strings.Split(log, "\n") {
			if strings.Contains(l, `"kind":"recv"`) {
				recvs = append(recvs, l[strings.Index(l, `"node"`):strings.Index(l, `"kind"`)]+l[strings.Index(l, `"from"`):strings.Index(l, `"to"`)])
			}
		}
		seen[strings.Join(recvs, "|")] = true
	}
	if len(seen) < 5 {
		t.Fatalf("10 seeds gave only %d distinct delivery orders", len(seen))
	}
}

// greedy is a deliberately broken mutual-exclusion node: it enters the
// critical section as soon as it is asked, without asking anyone.
type greedy struct{}

func (greedy) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && in.Cmd == node.CmdRequest {
		out.EnterCS()
	}
}

func TestCheckerCatchesPlantedViolation(t *testing.T) {
	broken := func() engine.System {
		return engine.System{
			Name:       "broken mutex",
			Nodes:      3,
			Factory:    func(int) (node.Node, error) { return greedy{}, nil },
			Script:     []node.Action{{At: 0, Node: 1, Cmd: node.CmdRequest}, {At: 2, Node: 3, Cmd: node.CmdRequest}},
			Properties: []check.Property{&check.MutualExclusion{}, check.Termination{}},
		}
	}
	for _, rt := range []string{"sim", "live"} {
		opts := simOpts("text", 1)
		opts.Runtime = rt
		opts.Tick, opts.Timeout = 1, 1<<40
		o, text, err := execute(t, broken(), opts)
		if cliutil.Code(err) != cliutil.ExitViolation {
			t.Fatalf("%s: err %v (exit %d), want exit 3", rt, err, cliutil.Code(err))
		}
		if len(o.Violations) != 1 || !strings.Contains(text, "VIOLATION of mutual exclusion: node 1 and node 3") {
			t.Fatalf("%s: violations %v; log:\n%s", rt, o.Violations, text)
		}
		if !strings.Contains(err.Error(), "replay: ringlab test") {
			t.Fatalf("%s: the error does not carry the replay command: %v", rt, err)
		}
	}
}

func TestNoTerminationExits4(t *testing.T) {
	opts := simOpts("none", 1)
	opts.MaxSteps = 10
	_, _, err := execute(t, passSpec(3, 100), opts)
	if cliutil.Code(err) != cliutil.ExitNoTermination {
		t.Fatalf("err %v, want exit 4", err)
	}
}
