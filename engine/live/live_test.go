package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"ringlab/engine/internal/nodetest"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func passConfig(n, hops int) config {
	return config{
		Nodes:   n,
		Factory: nodetest.PassFactory(n, hops),
		Script:  []node.Action{{Node: 1, Cmd: node.CmdStart}},
	}
}

// runLive is the scheduler the tests run on: the turn scheduler, or the
// plain one under TestPlain.
var runLive = runTurns

func run(t *testing.T, cfg config) result {
	t.Helper()
	res, err := runLive(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// record runs cfg with every event kept, in sink order.
func recordRun(t *testing.T, cfg config) (result, []trace.Event) {
	t.Helper()
	var evs []trace.Event
	cfg.Messages = true
	cfg.Sink = func(e *trace.Event) { evs = append(evs, *e) } // calls are serialized
	return run(t, cfg), evs
}

func TestPassCountsEveryHop(t *testing.T) {
	for _, tc := range []struct{ n, hops int }{{1, 5}, {2, 3}, {5, 5}, {5, 12}, {30, 100}, {7, 0}} {
		res := run(t, passConfig(tc.n, tc.hops))
		if res.Messages != int64(tc.hops) || res.ByType["TOKEN"] != int64(tc.hops) {
			t.Errorf("n=%d hops=%d: %d messages (%v), want %d", tc.n, tc.hops, res.Messages, res.ByType, tc.hops)
		}
		if res.Steps != int64(tc.hops)+1 || !res.Quiescent || res.Stopped || res.Exhausted {
			t.Errorf("n=%d hops=%d: %+v, want %d steps and quiescent", tc.n, tc.hops, res, tc.hops+1)
		}
	}
}

func TestNothingToDoIsQuiescent(t *testing.T) {
	res := run(t, config{Nodes: 3, Factory: nodetest.PassFactory(3, 3)})
	if !res.Quiescent || res.Steps != 0 {
		t.Errorf("%+v, want quiescent with no steps", res)
	}
}

// Every node sends at once around a ring: sends must never block.
func TestAllInitiatorsRing(t *testing.T) {
	for _, n := range []int{1, 2, 10, 1000} {
		f, want := swallowFactory(n, uint64(n))
		res := run(t, config{Nodes: n, Factory: f, Script: startAll(n)})
		if res.Messages != want || !res.Quiescent || res.Steps != int64(n)+want {
			t.Errorf("n=%d: %+v, want %d messages, %d steps, quiescent", n, res, want, int64(n)+want)
		}
	}
}

// Bursts overflow the inbox channel; links must stay FIFO.
func TestFIFOPerLinkUnderOverflow(t *testing.T) {
	const n, k = 8, 2000
	bad := 0
	res := run(t, config{Nodes: n, Factory: burstFactory(k, &bad), Script: startAll(n)})
	if bad != 0 {
		t.Errorf("%d messages arrived out of order on their link", bad)
	}
	if res.Messages != (n-1)*k || !res.Quiescent {
		t.Errorf("%+v, want %d messages, quiescent", res, (n-1)*k)
	}
}

func TestTimersAndScriptOnTheFakeClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = 10 * time.Millisecond
		res, evs := recordRun(t, config{
			Nodes:   2,
			Factory: tickerFactory(3, 4), // every 3 ticks from its start, done after 4
			Tick:    tick,
			Script:  []node.Action{{At: 5, Node: 1, Cmd: node.CmdStart}, {At: 0, Node: 2, Cmd: node.CmdStart}},
		})
		var notes [3][]string
		for _, e := range evs {
			if e.Kind == trace.KindNote {
				notes[e.Node] = append(notes[e.Node], e.Note)
			}
			if e.T%int64(tick) != 0 {
				t.Errorf("%s at t=%dns, not on a tick", e.Kind, e.T)
			}
		}
		for i, want := range []string{1: "tick 1 at 8,tick 2 at 11,tick 3 at 14,tick 4 at 17", 2: "tick 1 at 3,tick 2 at 6,tick 3 at 9,tick 4 at 12,tick 5 at 15"} {
			if got := strings.Join(notes[i], ","); i > 0 && got != want {
				t.Errorf("node %d ticked %q, want %q", i, got, want)
			}
		}
		// Both nodes keep a timer pending (node 2 ticks on after it is
		// done), but once both are done and no message is in flight the
		// run is over.
		if !res.Quiescent || res.Now != 17 || res.Elapsed != 17*tick || res.Steps != 11 {
			t.Errorf("%+v, want quiescent at t=17 after 11 steps", res)
		}
	})
}

// timerOps exercises replacing and cancelling timers: at start it sets
// timers 1 (after 5), 2 (after 2) and 3 (after 4); at tick 2 it replaces 1
// with after 1 and cancels 3.
type timerOps struct{ fired []string }

func (o *timerOps) Step(in node.Input, out *node.Output) {
	switch in.Kind {
	case node.InCmd:
		out.SetTimer(1, 5)
		out.SetTimer(2, 2)
		out.SetTimer(3, 4)
	case node.InTick:
		o.fired = append(o.fired, fmt.Sprintf("%d@%d", in.Timer, out.Now))
		if in.Timer == 2 {
			out.SetTimer(1, 1)
			out.StopTimer(3)
		}
	}
}

func TestTimerReplaceAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := &timerOps{}
		res := run(t, config{
			Nodes:   1,
			Factory: func(int) (node.Node, error) { return o, nil },
			Script:  []node.Action{{Node: 1, Cmd: node.CmdStart}},
		})
		if got := strings.Join(o.fired, " "); got != "2@2 1@3" {
			t.Errorf("fired %q, want \"2@2 1@3\"", got)
		}
		if !res.Quiescent || res.Now != 3 {
			t.Errorf("%+v, want quiescent at t=3", res)
		}
	})
}

func TestTimeoutIsExhausted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		res := run(t, config{
			Nodes: 3, Factory: tickerFactory(2, 0), Script: startAll(3), Timeout: 1001 * time.Millisecond,
		})
		if !res.Exhausted || res.Quiescent || res.Now != 1001 || res.Steps != 3+3*500 {
			t.Errorf("%+v, want exhausted at t=1001 after %d steps", res, 3+3*500)
		}
	})
}

func TestStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var steps atomic.Int64
		res := run(t, config{
			Nodes: 4, Factory: tickerFactory(1, 0), Script: startAll(4),
			Stop: func() bool { return steps.Add(1) >= 100 },
		})
		if !res.Stopped || res.Quiescent || res.Exhausted || res.Steps < 100 {
			t.Errorf("%+v, want stopped after at least 100 steps", res)
		}
	})
}

func TestCancelReturnsPartialResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 55*time.Millisecond)
		defer cancel()
		res, err := runLive(ctx, config{Nodes: 2, Factory: tickerFactory(10, 0), Script: startAll(2)})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's", err)
		}
		if res.Steps != 2+2*5 || res.Quiescent || res.Now != 55 {
			t.Errorf("%+v, want %d steps by t=55, not quiescent", res, 2+2*5)
		}
	})
}

// A busy ring with real goroutines, cancelled from outside mid-run.
func TestCancelBusyRing(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var steps atomic.Int64
	cfg := passConfig(50, 1<<40)
	cfg.Stop = func() bool {
		if steps.Add(1) == 10_000 {
			cancel()
		}
		return false
	}
	res, err := runLive(ctx, cfg)
	if !errors.Is(err, context.Canceled) || res.Steps < 10_000 || res.Quiescent {
		t.Errorf("err %v, %+v: want canceled after at least 10000 steps", err, res)
	}
}

func TestErrors(t *testing.T) {
	boom := errors.New("boom")
	for name, cfg := range map[string]config{
		"no nodes":   {Factory: nodetest.PassFactory(1, 1)},
		"no factory": {Nodes: 2},
		"bad script": {Nodes: 2, Factory: nodetest.PassFactory(2, 1), Script: []node.Action{{Node: 3, Cmd: node.CmdStart}}},
		"factory":    {Nodes: 2, Factory: func(int) (node.Node, error) { return nil, boom }},
		"send out of range": {Nodes: 2, Factory: func(i int) (node.Node, error) { return sendTo(7), nil },
			Script: startAll(2)},
	} {
		if _, err := runLive(t.Context(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

type sendTo int

func (s sendTo) Step(in node.Input, out *node.Output) { out.Send(int(s), nodetest.Wave{}) }

// Sink order: seq counts up from 1, t never goes back, and every recv has
// a Lamport clock above its send's.
func TestSinkOrderAndLamport(t *testing.T) {
	f, want := swallowFactory(40, 3)
	res, evs := recordRun(t, config{Nodes: 40, Factory: f, Script: startAll(40)})
	if res.Messages != want {
		t.Fatalf("%d messages, want %d", res.Messages, want)
	}
	type key struct{ from, to, k int }
	sent := map[key]int64{}
	nth := map[[3]int]int{}
	var recvs int
	for k, e := range evs {
		if e.Seq != int64(k+1) || (k > 0 && e.T < evs[k-1].T) {
			t.Fatalf("event %d: seq %d t %d after t %d", k, e.Seq, e.T, evs[max(k-1, 0)].T)
		}
		switch e.Kind {
		case trace.KindSend:
			c := [3]int{0, e.From, e.To}
			sent[key{e.From, e.To, nth[c]}] = e.LC
			nth[c]++
		case trace.KindRecv:
			c := [3]int{1, e.From, e.To}
			s, ok := sent[key{e.From, e.To, nth[c]}]
			nth[c]++
			recvs++
			if !ok || e.LC <= s {
				t.Errorf("recv %d->%d at lc %d, its send at lc %d (seen %v)", e.From, e.To, e.LC, s, ok)
			}
		}
	}
	if int64(recvs) != want {
		t.Errorf("%d recv events, want %d", recvs, want)
	}
}

// typed is a message whose type is its field: a node counts the first two
// types it sends in place and the others aside.
type typed string

func (m typed) Type() string { return string(m) }

type multiSender struct{}

func (multiSender) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd {
		for _, typ := range []string{"A", "B", "A", "C", "D", "C", "A"} {
			out.Send(2, typed(typ))
		}
	}
}

func TestCountsEveryMessageType(t *testing.T) {
	res := run(t, config{
		Nodes:   2,
		Factory: func(int) (node.Node, error) { return multiSender{}, nil },
		Script:  []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}},
	})
	want := map[string]int64{"A": 6, "B": 2, "C": 4, "D": 2}
	if res.Messages != 14 || fmt.Sprint(res.ByType) != fmt.Sprint(want) {
		t.Errorf("%d messages %v, want 14 %v", res.Messages, res.ByType, want)
	}
}

// pinger passes a ball back and forth between nodes 1 and 2 for ever;
// node 1 says something (a state) at its 1000th step.
type pinger struct{ self, steps int }

func (p *pinger) Step(in node.Input, out *node.Output) {
	p.steps++
	if p.self == 1 && p.steps == 1000 {
		out.State("seen")
	}
	out.Send(3-p.self, nodetest.Wave{})
}

// A Stop that turns true on what the sink saw ends the run.
func TestSinkStops(t *testing.T) {
	{
		var seen atomic.Bool
		res, err := runLive(t.Context(), config{
			Nodes:   2,
			Factory: func(i int) (node.Node, error) { return &pinger{self: i}, nil },
			Script:  []node.Action{{Node: 1, Cmd: node.CmdStart}},
			Sink: func(e *trace.Event) {
				if e.Kind == trace.KindState {
					seen.Store(true)
				}
			},
			Stop: seen.Load, Timeout: time.Minute,
		})
		if err != nil || !res.Stopped {
			t.Errorf("%v, %+v; want stopped on the sink's word", err, res)
		}
	}
}

// nowSeer records the Now of each of its inputs, and sends node 2 one
// message on its start.
type nowSeer struct{ seen *[]int64 }

func (s nowSeer) Step(in node.Input, out *node.Output) {
	*s.seen = append(*s.seen, out.Now)
	if in.Kind == node.InCmd {
		out.Send(2, nodetest.Token{Hop: 1})
	}
	out.State("saw")
}

// Every input carries the time it was taken, and its events that time.
func TestNodesGetNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []int64
		_, evs := recordRun(t, config{
			Nodes: 2, Tick: time.Millisecond,
			Factory: func(i int) (node.Node, error) { return nowSeer{&seen}, nil },
			Script:  []node.Action{{At: 7, Node: 1, Cmd: node.CmdStart}},
		})
		if !slices.Equal(seen, []int64{7, 7}) {
			t.Errorf("Now %v, want [7 7]", seen)
		}
		for _, e := range evs {
			if e.T != int64(7*time.Millisecond) {
				t.Errorf("%s at node %d at t=%dns, want %d", e.Kind, e.Node, e.T, 7*time.Millisecond)
			}
		}
		if len(evs) < 5 {
			t.Errorf("%d events, want cmd, states, send and recv", len(evs))
		}
	})
}
