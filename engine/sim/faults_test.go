package sim

import (
	"context"
	"testing"

	"ringlab/engine"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// events runs cfg and returns its events (copied) and result.
func events(t *testing.T, cfg config) ([]trace.Event, result) {
	t.Helper()
	var evs []trace.Event
	cfg.Sink = func(e *trace.Event) { evs = append(evs, *e) }
	cfg.Messages = true
	res, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return evs, res
}

func count(evs []trace.Event, kind string) int {
	n := 0
	for _, e := range evs {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// flood6 floods a complete graph of 6 nodes: 2m-(n-1) = 30-5 = 25 messages.
func flood6() config {
	return config{Nodes: 6, Factory: nodetest.FloodFactory(node.Complete(6)),
		Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}}
}

func TestFloodCount(t *testing.T) {
	_, res := events(t, flood6())
	if res.Messages != 25 {
		t.Fatalf("flood of K6 sent %d messages, want 2m-(n-1) = 25", res.Messages)
	}
}

func TestDropHappensAndIsCounted(t *testing.T) {
	cfg := flood6()
	cfg.Faults.Drop, cfg.Seed = 0.3, 7
	evs, res := events(t, cfg)
	if res.Dropped == 0 || int64(count(evs, trace.KindDrop)) != res.Dropped {
		t.Fatalf("drop=0.3: %d dropped, %d drop events", res.Dropped, count(evs, trace.KindDrop))
	}
	if int64(count(evs, trace.KindRecv))+res.Dropped != res.Messages {
		t.Fatalf("every sent message is received or dropped: %d recv + %d dropped != %d sent",
			count(evs, trace.KindRecv), res.Dropped, res.Messages)
	}
}

func TestDuplicateHappens(t *testing.T) {
	cfg := flood6()
	cfg.Faults.Dup, cfg.Seed = 0.3, 7
	evs, res := events(t, cfg)
	if res.Duplicated == 0 || int64(count(evs, trace.KindRecv)) != res.Messages+res.Duplicated {
		t.Fatalf("dup=0.3: %d duplicated; %d recv for %d sent", res.Duplicated, count(evs, trace.KindRecv), res.Messages)
	}
}

func TestCrashStopsDelivery(t *testing.T) {
	// Node 3 of a 5-node Pass ring crashes at t=1: the token dies there.
	cfg := config{Nodes: 5, Factory: nodetest.PassFactory(5, 20),
		Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}, {At: 1, Node: 3, Cmd: node.CmdCrash}}}
	evs, res := events(t, cfg)
	if count(evs, trace.KindCrash) != 1 || res.Dropped != 1 || res.Messages != 2 {
		t.Fatalf("crash: %d crash events, %d dropped, %d sent; want 1, 1, 2", count(evs, trace.KindCrash), res.Dropped, res.Messages)
	}
}

func TestRestartHasAmnesia(t *testing.T) {
	// Flood: node 2 is reached, crashes, restarts with its state reset, and
	// a second start wave reaches it again as if for the first time.
	cfg := config{Nodes: 3, Factory: nodetest.FloodFactory(node.Ring(3)),
		Script: []node.Action{
			{At: 0, Node: 1, Cmd: node.CmdStart},
			{At: 5, Node: 2, Cmd: node.CmdCrash},
			{At: 6, Node: 2, Cmd: node.CmdRestart},
		}}
	evs, _ := events(t, cfg)
	if count(evs, trace.KindRecover) != 1 {
		t.Fatal("no recover event")
	}
	var cmds []string
	for _, e := range evs {
		if e.Kind == trace.KindCmd && e.Node == 2 {
			cmds = append(cmds, e.Cmd)
		}
	}
	if len(cmds) != 1 || cmds[0] != string(node.CmdRecover) {
		t.Fatalf("a restarted node must be told it recovered: %v", cmds)
	}
}

func TestPartitionCutsLinks(t *testing.T) {
	// Nodes 1-2 cut off from 3-4-5 for the whole run: the flood never leaves.
	cfg := config{Nodes: 5, Factory: nodetest.FloodFactory(node.Complete(5)),
		Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Faults: Faults{Partitions: []Partition{{Group: []int{1, 2}, From: 0, Until: 100}}}}
	evs, _ := events(t, cfg)
	for _, e := range evs {
		if e.Kind == trace.KindState && e.Node > 2 {
			t.Fatalf("node %d was reached across the partition", e.Node)
		}
	}
	if count(evs, trace.KindDrop) != 6 {
		t.Fatalf("%d drops, want the 6 messages from nodes 1 and 2 to 3, 4, 5", count(evs, trace.KindDrop))
	}
}

func TestSlowNodeIsLate(t *testing.T) {
	cfg := config{Nodes: 3, Factory: nodetest.PassFactory(3, 3),
		Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}},
		Faults: Faults{Slow: []Slow{{Node: 2, Extra: 10, From: 0, Until: 100}}}}
	_, res := events(t, cfg)
	if res.Now != 3+10 {
		t.Fatalf("3 hops with node 2 slow by 10 ended at t=%d, want 13", res.Now)
	}
}

func TestLatencyRangeKeepsFIFOPerLink(t *testing.T) {
	// Random latencies under the FIFO policy: a node's messages to one peer
	// still arrive in the order sent.
	for seed := uint64(1); seed <= 50; seed++ {
		cfg := config{Nodes: 2, Seed: seed, Delay: Delay{Min: 1, Max: 20}, Factory: burstFactory,
			Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}}
		evs, _ := events(t, cfg)
		last := 0
		for _, e := range evs {
			if e.Kind == trace.KindRecv {
				k := e.Msg.Value.(nodetest.Token).Hop
				if k < last {
					t.Fatalf("seed %d: message %d arrived after %d on a FIFO link", seed, k, last)
				}
				last = k
			}
		}
	}
}

// burst: node 1 sends ten numbered tokens to node 2 at once.
type burst struct{ self int }

func burstFactory(i int) (node.Node, error) { return burst{i}, nil }

func (b burst) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd && b.self == 1 {
		for k := 1; k <= 10; k++ {
			out.Send(2, nodetest.Token{Hop: k})
		}
	}
}

// overtaken judges a run bad when a later burst message overtakes an earlier one.
type overtaken struct{ last, bad int }

func (o *overtaken) Observe(e *trace.Event) {
	if e.Kind == trace.KindRecv {
		k := e.Msg.Value.(nodetest.Token).Hop
		if k < o.last {
			o.bad++
		}
		o.last = k
	}
}
func (o *overtaken) Violated() bool           { return o.bad > 0 }
func (o *overtaken) Final(engine.Result) bool { return false }

func TestExploreFindsAndShrinksReordering(t *testing.T) {
	sys := engine.System{Nodes: 2, Factory: burstFactory, Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}}
	rt := Runtime{Delay: Delay{Min: 1, Max: 5}}
	judge := func() Judge { return &overtaken{} }

	rt.Policy = PolicyFIFO
	f, err := Explore{Runtime: rt, System: sys, Schedules: 200, FirstSeed: 1, NewJudge: judge}.Run(t.Context())
	if err != nil || f.Violating {
		t.Fatalf("FIFO links: explorer found %+v (err %v); no message may overtake", f, err)
	}

	rt.Policy = PolicyRandom
	f, err = Explore{Runtime: rt, System: sys, Schedules: 200, FirstSeed: 1, NewJudge: judge}.Run(t.Context())
	if err != nil || !f.Violating {
		t.Fatalf("random policy: explorer found nothing in %d schedules (err %v)", f.Runs, err)
	}
	// One delayed message is enough to be overtaken: the shrunk schedule
	// keeps a single non-default decision, and it still violates on replay.
	nz := 0
	for _, c := range f.Choices {
		if c != 0 {
			nz++
		}
	}
	if nz != 1 || f.Original < nz {
		t.Fatalf("shrunk to %d non-default decisions (from %d): %v", nz, f.Original, f.Choices)
	}
	replay := rt
	replay.Seed, replay.Choices, replay.Messages = f.Seed, f.Choices, true
	o := &overtaken{}
	if _, err := replay.Run(t.Context(), sys, o.Observe); err != nil || !o.Violated() {
		t.Fatalf("the shrunk schedule does not replay the violation (err %v)", err)
	}
}

// Cancelling the context stops a sweep before its next schedule, even when
// every schedule ends long before the run's own poll of it (Ctrl-C during
// `explore`): here it is cancelled once the third schedule has been tried.
func TestExploreStopsAtCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	sys := engine.System{Nodes: 2, Factory: burstFactory, Script: []node.Action{{At: 0, Node: 1, Cmd: node.CmdStart}}}
	x := Explore{Runtime: Runtime{Policy: PolicyFIFO}, System: sys, Schedules: 1_000_000, FirstSeed: 1,
		NewJudge: func() Judge { return &overtaken{} },
		Progress: func(runs int) {
			if runs == 3 {
				cancel()
			}
		}}
	f, err := x.Run(ctx)
	if err != nil || !f.Interrupted || f.Runs != 3 {
		t.Fatalf("found %+v (err %v), want interrupted after 3 schedules", f, err)
	}
}

// broadcast sends one token to every other node at its start command.
type broadcast struct{ self, n int }

func (b broadcast) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd {
		for to := 1; to <= b.n; to++ {
			if to != b.self {
				out.Send(to, nodetest.Token{Hop: to})
			}
		}
	}
}

// A run polls Cancel by the events it reports too, not only by items and
// steps: 300 nodes starting at once report 89,700 sends before the first
// delivery, and a cancel at the first of them is seen within a poll's
// worth of events (plus the step under way).
func TestCancelSeenWithinAPollOfEvents(t *testing.T) {
	const n = 300
	cancel := make(chan struct{})
	var script []node.Action
	for i := 1; i <= n; i++ {
		script = append(script, node.Action{At: 0, Node: i, Cmd: node.CmdStart})
	}
	events := 0
	res, err := run(config{Nodes: n, Script: script, Cancel: cancel, Messages: true, MaxSteps: 1 << 40,
		Factory: func(i int) (node.Node, error) { return broadcast{i, n}, nil },
		Sink: func(*trace.Event) {
			if events++; events == 1 {
				close(cancel)
			}
		}})
	if err != nil || !res.Interrupted || events > 4096+2*n {
		t.Fatalf("interrupted %v after %d events (err %v), want at most %d", res.Interrupted, events, err, 4096+2*n)
	}
}
