package live_test

import (
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"

	"ringlab/election/changroberts"
	"ringlab/internal/live"
	"ringlab/internal/node"
	"ringlab/internal/raceguard"
	"ringlab/internal/trace"
)

// stackBytes is the memory in goroutine stacks now.
func stackBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// probe is a node that measures the stacks when the announcement comes
// back to it, the last step of a Chang-Roberts election: every node
// goroutine is alive then (the test keeps done nodes from parking: see
// peer.park), and has been down its deepest path.
type probe struct {
	node.Node
	at *int64
}

func (p probe) Step(in node.Input, out *node.Output) {
	if _, ok := in.Msg.(changroberts.Elected); ok {
		*p.at = stackBytes()
	}
	p.Node.Step(in, out)
}

// A node's goroutine must keep its first 2 KiB stack: a million nodes
// whose stacks grew to 4 KiB would cost 2 GB more (see peer.loop). This
// runs the deepest path there is — Chang-Roberts, every node emitting state
// and leader events to a checking-only sink, batched or not — and measures
// the stacks at the election's last step. (Not under -race, whose
// instrumentation makes every frame bigger.)
func TestNodeStacksStaySmall(t *testing.T) {
	if raceguard.Enabled {
		t.Skip("frames are bigger under -race")
	}
	const n = 20_000
	ids := rand.New(rand.NewPCG(1, 2)).Perm(n)
	for i := range ids {
		ids[i]++
	}
	maxAt := slices.Index(ids, n) + 1
	defer live.SetParking(live.SetParking(false))
	for _, batch := range []bool{true, false} {
		f, err := changroberts.Factory(ids)
		if err != nil {
			t.Fatal(err)
		}
		var at int64
		leaders := 0
		cfg := live.Config{
			Nodes: n, Script: startAll(n), Batch: batch,
			Factory: func(i int) (node.Node, error) {
				nd, err := f(i)
				if i == maxAt {
					return probe{nd, &at}, err
				}
				return nd, err
			},
			Skip: trace.AllKinds &^ trace.KindsOf(trace.KindLeader, trace.KindCrash, trace.KindRecover),
			Sink: func(e *trace.Event) { leaders++ },
		}
		runtime.GC() // release the stacks an earlier run left free
		before := stackBytes()
		res := run(t, cfg)
		if !res.Quiescent || leaders != n || at == 0 {
			t.Fatalf("batch %v: %+v, %d leader events, measured %d; want quiescent, %d", batch, res, leaders, at, n)
		}
		perNode := (at - before) / n
		t.Logf("batch %v: %d bytes of stack a node goroutine", batch, perNode)
		if perNode > 2560 {
			t.Errorf("batch %v: node goroutines used %d bytes of stack each: some grew past 2 KiB", batch, perNode)
		}
	}
}
