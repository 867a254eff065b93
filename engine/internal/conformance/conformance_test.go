// Package conformance runs the same algorithms on every runtime, each
// through engine.Runtime — the deterministic simulator (engine/sim), the
// live runtime's two schedulers, plain and turns (engine/live, under
// testing/synctest's fake clock), and RabbitMQ (engine/amqp, skipped when
// no broker answers) — and checks that they agree: exact message counts,
// every node reached, termination, the same node events as a multiset,
// crash and restart, the Lamport clock condition on every delivered
// message, and the interruption contract (a cancelled run ends
// Interrupted, with a nil error and its partial figures).
package conformance

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"ringlab/engine"
	"ringlab/engine/amqp"
	"ringlab/engine/amqp/amqptest"
	"ringlab/engine/internal/nodetest"
	"ringlab/engine/live"
	"ringlab/engine/node"
	"ringlab/engine/sim"
	"ringlab/engine/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// scenario is one workload, runtime-neutral.
type scenario struct {
	nodes   int
	factory node.Factory
	script  []node.Action
	skip    trace.Kinds // kinds the sink does not want
	// workload, if set, makes each run's fresh workload.
	workload func() engine.Workload
}

// outcome is what the checks compare between runtimes.
type outcome struct {
	messages int64
	byType   map[string]int64
	end      engine.End
	events   []trace.Event // every event, in sink order
}

// runtimeCase is one runtime under test.
type runtimeCase struct {
	name string
	// make returns the runtime for one run with skip (it may skip t).
	make func(t *testing.T, skip trace.Kinds) engine.Runtime
	// fake runs it in a synctest bubble: its clock is fake, and a
	// scenario's times cost no wall time and depend on no machine's speed.
	fake bool
}

var runtimes = []runtimeCase{
	{name: "sim", make: func(t *testing.T, skip trace.Kinds) engine.Runtime {
		return sim.Runtime{Messages: true, Skip: skip}
	}},
	{name: "live-plain", fake: true, make: func(t *testing.T, skip trace.Kinds) engine.Runtime {
		return live.Runtime{Scheduler: live.Plain, Messages: true, Skip: skip}
	}},
	{name: "live-turns", fake: true, make: func(t *testing.T, skip trace.Kinds) engine.Runtime {
		return live.Runtime{Scheduler: live.Turns, Messages: true, Skip: skip}
	}},
	{name: "amqp", make: func(t *testing.T, skip trace.Kinds) engine.Runtime {
		url := amqptest.BrokerURL(t)
		id := fmt.Sprint(runID.Add(1))
		names := amqp.RunNames("conformance", id)
		p := fmt.Sprintf("test-conformance-%d.", os.Getpid()) // this process's, on a shared broker
		names.Exchange, names.Prefix = p+names.Exchange, p+names.Prefix
		return amqp.Runtime{URL: url, Names: names, RunID: id, Purge: true, Teardown: true, Lock: true,
			Messages: true, Skip: skip, Timeout: time.Minute}
	}},
}

var runID atomic.Int64

// messages are the message types of the test algorithms (the registry an
// amqp codec decodes by).
var messages = []node.Msg{nodetest.Token{}, nodetest.Wave{}}

// run runs sc on rc; cancelAfter > 0 cancels the run's context at that
// event.
func run(t *testing.T, rc runtimeCase, sc scenario, cancelAfter int) (outcome, error) {
	t.Helper()
	var o outcome
	var err error
	sys := engine.System{Nodes: sc.nodes, Factory: sc.factory, Script: sc.script, Messages: messages}
	if sc.workload != nil {
		sys.Workload = sc.workload()
	}
	do := func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		var res engine.Result
		res, err = rc.make(t, sc.skip).Run(ctx, sys, func(e *trace.Event) { // serialized by every runtime
			o.events = append(o.events, *e)
			if len(o.events) == cancelAfter {
				cancel()
			}
		})
		o.messages, o.byType, o.end = res.Messages, res.ByType, res.End
	}
	if rc.fake {
		synctest.Test(t, do)
	} else {
		do(t)
	}
	return o, err
}

// runAll runs sc on every runtime, checks each outcome on its own, and
// checks that they agree with the simulator. A runtime whose clock is
// the wall clock (amqp) skips a scenario whose script has times: what
// happens between them would depend on the machine's speed.
func runAll(t *testing.T, sc scenario, wantMsgs int64) map[string]outcome {
	t.Helper()
	got := map[string]outcome{}
	timed := slices.ContainsFunc(sc.script, func(a node.Action) bool { return a.At > 0 })
	for _, rc := range runtimes {
		if timed && !rc.fake && rc.name != "sim" {
			continue
		}
		t.Run(rc.name, func(t *testing.T) {
			o, err := run(t, rc, sc, 0)
			if err != nil {
				t.Fatal(err)
			}
			if o.messages != wantMsgs {
				t.Errorf("%d messages (%v), want %d", o.messages, o.byType, wantMsgs)
			}
			if o.end != engine.Quiescent {
				t.Errorf("the run ended %v, want quiescent", o.end)
			}
			if sc.skip == 0 { // the clock condition pairs sends with receives
				checkLamport(t, rc.name, o.events)
			}
			got[rc.name] = o
		})
	}
	s := got["sim"]
	for name, o := range got {
		if !maps.Equal(s.byType, o.byType) {
			t.Errorf("messages by type: sim %v, %s %v", s.byType, name, o.byType)
		} else if sn, on := nodeEvents(s.events), nodeEvents(o.events); !maps.Equal(sn, on) {
			t.Errorf("node events differ:\nsim  %v\n%-4s %v", sn, name, on)
		}
	}
	return got
}

// nodeEvents is the multiset of events that are not message traffic,
// without time, sequence or clock.
func nodeEvents(evs []trace.Event) map[string]int {
	m := map[string]int{}
	for _, e := range evs {
		switch e.Kind {
		case trace.KindSend, trace.KindRecv, trace.KindDrop, trace.KindDup:
			continue
		}
		m[fmt.Sprintf("node %d: %s", e.Node, trace.Describe(&e))]++
	}
	return m
}

// checkLamport checks the clock condition: every recv's lc is above the lc
// of its send (the k-th recv on a link matches the k-th send: links are FIFO
// in both runtimes), and every node's lc increases event by event.
func checkLamport(t *testing.T, name string, evs []trace.Event) {
	t.Helper()
	sends := map[[2]int][]int64{}
	last := map[int]int64{}
	for _, e := range evs {
		if e.LC <= last[e.Node] && e.Kind != trace.KindDrop {
			t.Errorf("%s: node %d's clock went from %d to %d at %s", name, e.Node, last[e.Node], e.LC, e.Kind)
		}
		last[e.Node] = max(last[e.Node], e.LC)
		link := [2]int{e.From, e.To}
		switch e.Kind {
		case trace.KindSend:
			sends[link] = append(sends[link], e.LC)
		case trace.KindRecv, trace.KindDrop:
			q := sends[link]
			if len(q) == 0 {
				t.Errorf("%s: %s %d->%d without a send", name, e.Kind, e.From, e.To)
				continue
			}
			if e.Kind == trace.KindRecv && e.LC <= q[0] {
				t.Errorf("%s: recv %d->%d at lc %d, sent at lc %d", name, e.From, e.To, e.LC, q[0])
			}
			sends[link] = q[1:]
		}
	}
}

// reached is the set of nodes where an event of kind happened.
func reached(evs []trace.Event, kind string) map[int]bool {
	m := map[int]bool{}
	for _, e := range evs {
		if e.Kind == kind {
			m[e.Node] = true
		}
	}
	return m
}

func start1() []node.Action { return []node.Action{{Node: 1, Cmd: node.CmdStart}} }

func TestPass(t *testing.T) {
	for _, n := range []int{1, 2, 5, 30} {
		hops := 3*n + 1
		t.Run(fmt.Sprintf("nodes=%d", n), func(t *testing.T) {
			got := runAll(t, scenario{nodes: n, factory: nodetest.PassFactory(n, hops), script: start1()}, int64(hops))
			for name, o := range got {
				if r := reached(o.events, trace.KindRecv); len(r) != n {
					t.Errorf("%s: %d of %d nodes got the token", name, len(r), n)
				}
			}
		})
	}
}

func grid(rows, cols int) (node.Topology, int) {
	edges := node.GridEdges(rows, cols)
	topo, err := node.Graph(rows*cols, edges)
	if err != nil {
		panic(err)
	}
	return topo, len(edges)
}

func TestFlood(t *testing.T) {
	g, gm := grid(4, 6)
	for _, tc := range []struct {
		name string
		topo node.Topology
		m    int
	}{
		{"ring", node.Ring(12), 12},
		{"complete", node.Complete(9), 9 * 8 / 2},
		{"grid", g, gm},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.topo.N
			got := runAll(t, scenario{nodes: n, factory: nodetest.FloodFactory(tc.topo), script: start1()}, int64(2*tc.m-(n-1)))
			for name, o := range got {
				if r := reached(o.events, trace.KindState); len(r) != n {
					t.Errorf("%s: %d of %d nodes reached", name, len(r), n)
				}
			}
		})
	}
}

// A crashed node drops the token; restarted, it takes part again.
func TestCrashAndRestart(t *testing.T) {
	const n, hops = 5, 20
	script := []node.Action{
		{At: 0, Node: 3, Cmd: node.CmdCrash},
		{At: 5, Node: 1, Cmd: node.CmdStart}, // hop 2 reaches node 3: dropped
		{At: 10, Node: 3, Cmd: node.CmdRestart},
		{At: 15, Node: 1, Cmd: node.CmdStart}, // all 20 hops
	}
	got := runAll(t, scenario{nodes: n, factory: nodetest.PassFactory(n, hops), script: script}, 2+hops)
	for name, o := range got {
		var drops, crashes, recovers int
		for _, e := range o.events {
			switch {
			case e.Kind == trace.KindDrop && e.To == 3:
				drops++
			case e.Kind == trace.KindCrash && e.Node == 3:
				crashes++
			case e.Kind == trace.KindRecover && e.Node == 3:
				recovers++
			}
		}
		if drops != 1 || crashes != 1 || recovers != 1 {
			t.Errorf("%s: %d drops, %d crashes, %d recoveries at node 3; want 1 each", name, drops, crashes, recovers)
		}
	}
}

// A sink that skips some kinds gets none of them, and every event of the
// other kinds, as a run that skips nothing: the runtimes leave the skipped
// events out, and change nothing else.
func TestSkippedKinds(t *testing.T) {
	const n, hops = 5, 20
	script := []node.Action{
		{At: 0, Node: 3, Cmd: node.CmdCrash},
		{At: 5, Node: 1, Cmd: node.CmdStart},
		{At: 10, Node: 3, Cmd: node.CmdRestart},
		{At: 15, Node: 1, Cmd: node.CmdStart},
	}
	sc := scenario{nodes: n, factory: nodetest.PassFactory(n, hops), script: script}
	for _, keep := range []trace.Kinds{
		trace.KindsOf(trace.KindCrash, trace.KindRecover),
		trace.KindsOf(trace.KindRecv, trace.KindCmd),
		trace.KindsOf(trace.KindSend, trace.KindDrop),
		0,
	} {
		full := runAll(t, sc, 2+hops)
		sc.skip = trace.AllKinds &^ keep
		for name, o := range runAll(t, sc, 2+hops) {
			var want []string
			for _, e := range full[name].events {
				if keep.Has(e.Kind) {
					want = append(want, fmt.Sprintf("node %d: %s", e.Node, trace.Describe(&e)))
				}
			}
			var got []string
			for _, e := range o.events {
				got = append(got, fmt.Sprintf("node %d: %s", e.Node, trace.Describe(&e)))
			}
			slices.Sort(want) // live's order between nodes is the scheduler's
			slices.Sort(got)
			if len(want) == 0 && keep != 0 {
				t.Fatalf("%s: the full run has no event of kinds %b: the test shows nothing", name, keep)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s keeping %b:\ngot  %q\nwant %q", name, keep, got, want)
			}
		}
		sc.skip = 0
	}
}

// A cancelled run ends Interrupted with a nil error and the figures so
// far: the token of a run that would take a billion hops is cancelled at
// its 100th event.
func TestInterrupted(t *testing.T) {
	const n, hops, at = 5, 1_000_000_000, 100
	sc := scenario{nodes: n, factory: nodetest.PassFactory(n, hops), script: start1()}
	for _, rc := range runtimes {
		t.Run(rc.name, func(t *testing.T) {
			o, err := run(t, rc, sc, at)
			if err != nil {
				t.Fatalf("err %v, want nil", err)
			}
			if o.end != engine.Interrupted {
				t.Errorf("the run ended %v, want interrupted", o.end)
			}
			if o.messages < at/4 || o.messages >= hops || len(o.events) < at {
				t.Errorf("%d messages, %d events: want the partial figures of a run cancelled at event %d", o.messages, len(o.events), at)
			}
		})
	}
}

// recorder is a workload that starts node 1 once more a tick after its
// first state event, and records the crashes and restarts it hears of.
// The runtimes call it from several goroutines: it locks.
type recorder struct {
	mu                sync.Mutex
	again             bool
	crashes, restarts []int
}

func (w *recorder) React(i int, ev node.Event, now int64) []node.Action {
	w.mu.Lock()
	defer w.mu.Unlock()
	if i != 1 || ev.Kind != node.EvState || w.again {
		return nil
	}
	w.again = true
	return []node.Action{{At: 1, Node: 1, Cmd: node.CmdStart}}
}

func (w *recorder) Crash(i int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.crashes = append(w.crashes, i)
}

func (w *recorder) Restart(i int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.restarts = append(w.restarts, i)
}

func (w *recorder) Clone() engine.Workload    { panic("not cloned in a run") }
func (w *recorder) AppendKey(b []byte) []byte { return b }

// Every runtime carries out the workload's actions (a second start of a
// flood, which node 1 ignores), and tells it of every crash and restart.
func TestWorkload(t *testing.T) {
	const n, hops = 5, 7
	var made []*recorder
	fresh := func() engine.Workload {
		w := &recorder{}
		made = append(made, w)
		return w
	}
	got := runAll(t, scenario{nodes: n, factory: nodetest.FloodFactory(node.Ring(n)), script: start1(), workload: fresh}, n+1)
	for name, o := range got {
		if c := nodeEvents(o.events)["node 1: cmd   start"]; c != 2 {
			t.Errorf("%s: node 1 was started %d times, want 2 (the script's and the workload's)", name, c)
		}
	}
	made = nil
	script := []node.Action{
		{At: 0, Node: 3, Cmd: node.CmdCrash},
		{At: 10, Node: 3, Cmd: node.CmdRestart},
		{At: 15, Node: 1, Cmd: node.CmdStart},
	}
	runAll(t, scenario{nodes: n, factory: nodetest.PassFactory(n, hops), script: script, workload: fresh}, hops)
	for _, w := range made {
		if !slices.Equal(w.crashes, []int{3}) || !slices.Equal(w.restarts, []int{3}) {
			t.Errorf("the workload heard of crashes %v and restarts %v, want [3] and [3]", w.crashes, w.restarts)
		}
	}
	if len(made) < 3 {
		t.Errorf("%d runs with the crash, want one per runtime with a fake clock and the simulator's", len(made))
	}
}
