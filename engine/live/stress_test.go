package live

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// Stress tests for the hand-over of a node between goroutines (inbox.put,
// peer.take, the turns of turns.go) mixed with timers, scripted and
// reactive actions, crashes and restarts, and runs that end mid-flight.
//
// The nodes keep their bookkeeping in a run-wide book, so that it outlives
// a crash and restart (the Factory builds a fresh node with amnesia).

// rhop is a message numbered per link (From, To), with a time to live.
type rhop struct {
	TTL int
	Seq int64
}

func (rhop) Type() string { return "RHOP" }

// book is the run-wide bookkeeping of the mixer nodes.
type book struct {
	n       int
	sent    []atomic.Int64 // per link: the last Seq sent (only the sender writes it)
	got     []atomic.Int64 // per link: the last Seq received (only the receiver writes it)
	inStep  []atomic.Int32 // per node: a Step is running
	handled atomic.Int64   // messages handled by a node's Step
	gaps    atomic.Int64   // links where a Seq came after a gap (a message lost)
	bad     atomic.Int64   // links where a Seq came twice or out of order
	overlap atomic.Int64   // Steps of one node that ran at once
}

func newBook(n int) *book {
	return &book{n: n, sent: make([]atomic.Int64, (n+1)*(n+1)), got: make([]atomic.Int64, (n+1)*(n+1)),
		inStep: make([]atomic.Int32, n+1)}
}

func (b *book) link(from, to int) int { return from*(b.n+1) + to }

// mixer: on a command (start, recover, or one from React) it sends k hops
// of TTL ttl to the k nodes after it; a hop with TTL > 0 goes on, one
// less, to a node picked from its Seq. A ticker (the first `tickers`
// nodes) also ticks every `period` ticks from its start, `last` times,
// sending a hop and a note on each tick but the last (a note makes React
// start another node); it is done after its last tick. Every other node is
// done from its first step, so it parks between messages.
type mixer struct {
	self                int
	bk                  *book
	k, ttl              int
	ticker              bool
	period, last, ticks int
	perpetual           bool // nodes 1 and 2 pass a ball for ever (runs that are ended from outside)
}

func (m *mixer) send(out *node.Output, to, ttl int) {
	s := &m.bk.sent[m.bk.link(m.self, to)]
	out.Send(to, rhop{TTL: ttl, Seq: s.Add(1)})
}

func (m *mixer) next(d int) int { return (m.self-1+d)%m.bk.n + 1 }

func (m *mixer) Step(in node.Input, out *node.Output) {
	if !m.bk.inStep[m.self].CompareAndSwap(0, 1) {
		m.bk.overlap.Add(1)
	}
	defer m.bk.inStep[m.self].Store(0)
	switch in.Kind {
	case node.InCmd:
		for d := 1; d <= m.k; d++ {
			m.send(out, m.next(d), m.ttl)
		}
		if m.ticker && in.Cmd == node.CmdStart && m.ticks == 0 {
			out.SetTimer(1, int64(m.period))
		}
		if m.perpetual {
			m.send(out, 3-m.self, 0)
		}
	case node.InMsg:
		h := in.Msg.(rhop)
		g := &m.bk.got[m.bk.link(in.From, m.self)]
		switch last := g.Load(); {
		case h.Seq <= last:
			m.bk.bad.Add(1)
		case h.Seq > last+1:
			m.bk.gaps.Add(1)
		}
		g.Store(h.Seq)
		m.bk.handled.Add(1)
		if h.TTL > 0 {
			m.send(out, m.next(1+int(h.Seq)%3), h.TTL-1)
		}
		if m.perpetual && in.From == 3-m.self {
			m.send(out, 3-m.self, 0)                           // the ball
			m.send(out, 3+int(h.Seq)%(m.bk.n-2), int(h.Seq)%3) // and a note to a done node
		}
	case node.InTick:
		m.ticks++
		if m.ticks < m.last {
			m.send(out, m.next(m.ticks), m.ttl)
			out.Note("react")
			out.SetTimer(1, int64(m.period))
		}
	}
	out.Done = !m.perpetual && (!m.ticker || m.ticks >= m.last)
}

// mixerConfig builds a run of n mixer nodes, every one started at t=0.
func mixerConfig(n, k, ttl, tickers int, bk *book) config {
	return config{
		Nodes: n,
		Factory: func(i int) (node.Node, error) {
			return &mixer{self: i, bk: bk, k: k, ttl: ttl, ticker: i <= tickers, period: 2, last: 5}, nil
		},
		Script: startAll(n),
		// A ticker's note at even tick t starts a non-ticker: at once, or
		// one tick later through the scheduler (an odd tick, when no
		// ticker steps), while the tickers still hold the run up.
		React: func(i int, ev node.Event, now int64) []node.Action {
			if ev.Kind != node.EvNote {
				return nil
			}
			to := tickers + 1 + (i*7+int(now))%(n-tickers)
			return []node.Action{{Node: to, Cmd: node.CmdStart}, {At: 1, Node: (to % (n - tickers)) + tickers + 1, Cmd: node.CmdStart}}
		},
	}
}

// Every message reaches its receiver exactly once and in order on its
// link, although nearly every receiver is done and parks between
// messages, while timers tick, and React's actions (at once, and through
// the scheduler) start parked nodes again. On the fake clock the run's end
// is exact: when the last ticker is done, no message is left.
func TestParkingWithTimersAndReactions(t *testing.T) {
	for _, tc := range []struct{ n, k, ttl, tickers int }{{3, 1, 4, 1}, {16, 3, 6, 2}, {64, 4, 8, 4}} {
		for rep := range 3 {
			synctest.Test(t, func(t *testing.T) {
				bk := newBook(tc.n)
				res := run(t, mixerConfig(tc.n, tc.k, tc.ttl, tc.tickers, bk))
				if !res.Quiescent || res.Now != 10 {
					t.Errorf("%+v (rep %d): want quiescent at t=10, the tickers' last tick", res, rep)
				}
				if h := bk.handled.Load(); h != res.Messages || h == 0 {
					t.Errorf("n=%d: %d messages sent, %d handled: want each handled once", tc.n, res.Messages, h)
				}
				if b, g, o := bk.bad.Load(), bk.gaps.Load(), bk.overlap.Load(); b+g+o != 0 {
					t.Errorf("n=%d: %d repeated or reordered, %d gaps, %d overlapping steps", tc.n, b, g, o)
				}
			})
		}
	}
}

// crashScript crashes and restarts non-ticker nodes at odd ticks before
// the tickers' last tick (t=10); some stay down.
func crashScript(n, tickers int, rng *rand.Rand) []node.Action {
	var s []node.Action
	for range n / 2 {
		i := tickers + 1 + rng.IntN(n-tickers)
		at := int64(1 + 2*rng.IntN(4)) // 1, 3, 5 or 7
		s = append(s, node.Action{At: at, Node: i, Cmd: node.CmdCrash})
		if rng.IntN(4) > 0 {
			s = append(s, node.Action{At: at + 2*int64(rng.IntN(2)), Node: i, Cmd: node.CmdRestart})
		}
	}
	return s
}

// As above, with crashes and restarts of nodes that are parked, running,
// or being started again by a message: each message is received at most
// once, in order on its link, and every one sent is either received or
// dropped (at a crashed receiver).
func TestCrashAndRestartParkedNodes(t *testing.T) {
	for _, tc := range []struct{ n, k, ttl, tickers int }{{4, 1, 4, 1}, {24, 3, 6, 2}, {64, 4, 8, 4}} {
		for rep := range 4 {
			synctest.Test(t, func(t *testing.T) {
				bk := newBook(tc.n)
				cfg := mixerConfig(tc.n, tc.k, tc.ttl, tc.tickers, bk)
				cfg.Script = append(cfg.Script, crashScript(tc.n, tc.tickers, rand.New(rand.NewPCG(uint64(rep), uint64(tc.n))))...)
				var recv, drop int64
				cfg.Messages = true
				cfg.Sink = func(e *trace.Event) {
					switch e.Kind {
					case trace.KindRecv:
						recv++
					case trace.KindDrop:
						drop++
					}
				}
				res := run(t, cfg)
				if !res.Quiescent || res.Now != 10 {
					t.Errorf("%+v: want quiescent at t=10", res)
				}
				if recv+drop != res.Messages || recv != bk.handled.Load() {
					t.Errorf("n=%d rep %d: %d sent, %d received (%d handled), %d dropped", tc.n, rep, res.Messages, recv, bk.handled.Load(), drop)
				}
				if b, o := bk.bad.Load(), bk.overlap.Load(); b+o != 0 {
					t.Errorf("n=%d rep %d: %d repeated or reordered, %d overlapping steps", tc.n, rep, b, o)
				}
			})
		}
	}
}

// perpetualConfig: nodes 1 and 2 pass a ball for ever and note every
// other node (done, parked between notes), while tickers tick and the
// script crashes and restarts nodes on the real clock: a run that only
// ends from outside.
func perpetualConfig(n int, bk *book, rng *rand.Rand) config {
	const tickers = 2
	cfg := config{
		Nodes: n,
		Tick:  50 * time.Microsecond,
		Factory: func(i int) (node.Node, error) {
			return &mixer{self: i, bk: bk, k: 2, ttl: 3, perpetual: i <= 2, ticker: i > 2 && i <= 2+tickers, period: 1, last: 1 << 30}, nil
		},
		Script: startAll(n),
	}
	for range n {
		i := 3 + tickers + rng.IntN(n-2-tickers)
		at := int64(rng.IntN(40))
		cfg.Script = append(cfg.Script, node.Action{At: at, Node: i, Cmd: node.CmdCrash}, node.Action{At: at + int64(rng.IntN(3)), Node: i, Cmd: node.CmdRestart})
	}
	return cfg
}

// Runs ended from outside — by Stop, by cancelling the context, by the
// timeout — while messages still reach parked nodes, timers are armed, and
// crashes and restarts are due: Run returns, every goroutine it started
// has returned (goleak, in TestMain), and what was handled was handled
// once, in order.
func TestRunsEndedFromOutsideWithParkedNodes(t *testing.T) {
	const n = 40
	for rep := range 12 {
		bk := newBook(n)
		cfg := perpetualConfig(n, bk, rand.New(rand.NewPCG(uint64(rep), 7)))
		ctx, cancel := context.WithCancel(t.Context())
		limit := int64(200 + 300*(rep%4))
		var steps atomic.Int64
		var want string
		switch rep % 3 {
		case 0:
			want = "stopped"
			cfg.Stop = func() bool { return steps.Add(1) >= limit }
		case 1:
			want = "cancelled"
			cfg.Stop = func() bool {
				if steps.Add(1) == limit {
					cancel()
				}
				return false
			}
		case 2:
			want = "exhausted"
			cfg.Timeout = time.Duration(1+rep%4) * time.Millisecond
		}
		res, err := runLive(ctx, cfg)
		cancel()
		got := ""
		switch {
		case errors.Is(err, context.Canceled):
			got = "cancelled"
		case err != nil:
			t.Fatalf("rep %d: %v", rep, err)
		case res.Stopped:
			got = "stopped"
		case res.Exhausted:
			got = "exhausted"
		}
		if got != want || res.Quiescent {
			t.Errorf("rep %d: %+v, err %v: want %s", rep, res, err, want)
		}
		if b, o := bk.bad.Load(), bk.overlap.Load(); b+o != 0 {
			t.Errorf("rep %d: %d repeated or reordered, %d overlapping steps", rep, b, o)
		}
	}
}

// Many short runs that end, quiescent, on the very step that handles the
// last message: the sender of that message may still be in inbox.put
// while the receiver's goroutine returns and Run closes every inbox. Run
// must return every time, with no goroutine left (goleak).
func TestRunsEndAsTheLastMessageLands(t *testing.T) {
	for rep := range 300 {
		n := 2 + rep%5
		bk := newBook(n)
		cfg := mixerConfig(n, 1+rep%2, 3+rep%7, 0, bk)
		cfg.React = nil
		res := run(t, cfg)
		if !res.Quiescent || bk.handled.Load() != res.Messages {
			t.Fatalf("rep %d: %+v, %d handled", rep, res, bk.handled.Load())
		}
	}
}

// switcher's first incarnation never reads Now; the one the Factory builds
// on a restart does.
type switcher struct {
	clockless bool
	nows      *[]int64
}

func (s *switcher) Step(in node.Input, out *node.Output) {
	if !s.clockless && in.Kind == node.InCmd {
		*s.nows = append(*s.nows, out.Now)
	}
}

type clocklessSwitcher struct{ *switcher }

// A node that restarts as one that reads the clock gets the time on its
// recover command, like any input of a clocked node, even when the node it
// replaces was clockless (and no Sink made the runtime read the clock).
func TestRestartedClockedNodeGetsNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var nows []int64
		built := 0
		run(t, config{
			Nodes: 2, Tick: time.Millisecond, // node 2 never starts: it holds the run up until the script is done
			Factory: func(i int) (node.Node, error) {
				if i == 2 {
					return &switcher{}, nil
				}
				built++ // the Factory runs on one goroutine at a time here
				if built == 1 {
					return clocklessSwitcher{&switcher{clockless: true}}, nil
				}
				return &switcher{nows: &nows}, nil
			},
			Script: []node.Action{{Node: 1, Cmd: node.CmdStart}, {At: 5, Node: 1, Cmd: node.CmdCrash}, {At: 10, Node: 1, Cmd: node.CmdRestart}},
		})
		if len(nows) != 1 || nows[0] != 10 {
			t.Errorf("the restarted node saw Now %v on its recover, want [10]", nows)
		}
	})
}
