package live

import (
	goruntime "runtime"
	"sync/atomic"
	"testing"

	"ringlab/engine/node"
)

// A node's goroutine ends when its inbox is empty, and the next message
// starts a new one. These tests send many messages to nodes that are done
// from their first step: every one must be handled once, in order per
// link, and the run must end with no goroutine left (goleak, in TestMain).

// hop is a message with a time to live, numbered per link (from, to).
type hop struct {
	TTL int
	Seq int64
}

func (hop) Type() string { return "HOP" }

// scatter is done from the start. On its start it sends k hops to the k
// nodes after it; a hop with TTL > 0 goes on, one less, to the node after
// the receiver. It checks FIFO per link, and node 1 samples the number of
// goroutines at each of its steps.
type scatter struct {
	self, n, k int
	sent       map[int]int64 // per receiver: the last Seq sent
	got        map[int]int64 // per sender: the last Seq received
	bad        *atomic.Int64 // FIFO violations, run-wide
	fewest     *atomic.Int64 // the fewest goroutines node 1 saw
}

func (s *scatter) send(out *node.Output, to, ttl int) {
	s.sent[to]++
	out.Send(to, hop{TTL: ttl, Seq: s.sent[to]})
}

func (s *scatter) Step(in node.Input, out *node.Output) {
	out.Done = true
	next := func(d int) int { return (s.self-1+d)%s.n + 1 }
	switch in.Kind {
	case node.InCmd:
		for d := 1; d <= s.k; d++ {
			s.send(out, next(d), s.k)
		}
	case node.InMsg:
		m := in.Msg.(hop)
		if m.Seq != s.got[in.From]+1 {
			s.bad.Add(1)
		}
		s.got[in.From] = m.Seq
		if m.TTL > 0 {
			s.send(out, next(1), m.TTL-1)
		}
	}
	if s.self == 1 {
		g := int64(goruntime.NumGoroutine())
		for f := s.fewest.Load(); g < f && !s.fewest.CompareAndSwap(f, g); f = s.fewest.Load() {
		}
	}
}

func scatterConfig(n, k int, starters []int) (config, *atomic.Int64, *atomic.Int64) {
	bad, fewest := new(atomic.Int64), new(atomic.Int64)
	fewest.Store(1 << 62)
	script := make([]node.Action, len(starters))
	for j, i := range starters {
		script[j] = node.Action{Node: i, Cmd: node.CmdStart}
	}
	return config{
		Nodes: n,
		Factory: func(i int) (node.Node, error) {
			return &scatter{self: i, n: n, k: k, sent: map[int]int64{}, got: map[int]int64{}, bad: bad, fewest: fewest}, nil
		},
		Script: script,
	}, bad, fewest
}

// Every node starts and sends k hops of TTL k at once, to its k
// successors: n*k*(k+1) messages, most of them to nodes that are done, on
// both cores, while those nodes park and are started again.
func TestParkedNodesWakeForEveryMessage(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{2, 1}, {3, 2}, {50, 8}, {500, 20}} {
		starters := make([]int, tc.n)
		for i := range starters {
			starters[i] = i + 1
		}
		cfg, bad, _ := scatterConfig(tc.n, tc.k, starters)
		for range 3 {
			res := run(t, cfg)
			want := int64(tc.n * tc.k * (tc.k + 1))
			if res.Messages != want || res.Steps != int64(tc.n)+want || !res.Quiescent {
				t.Errorf("n=%d k=%d: %+v, want %d messages, %d steps, quiescent", tc.n, tc.k, res, want, int64(tc.n)+want)
			}
			if b := bad.Load(); b != 0 {
				t.Errorf("n=%d k=%d: %d messages out of order on their link", tc.n, tc.k, b)
			}
		}
	}
}

// One hop of TTL 3n-1 goes round a ring of n done nodes three times: after
// the first lap, each hop restarts a parked node, and node 1 sees its
// fellow nodes' goroutines gone. Without parking it would count n or more
// (every node's goroutine, and the test's own).
func TestDoneNodesLetTheirGoroutinesGo(t *testing.T) {
	const n = 1000
	cfg, bad, fewest := scatterConfig(n, 0, []int{1})
	others := cfg.Factory
	cfg.Factory = func(i int) (node.Node, error) {
		nd, err := others(i)
		if i == 1 {
			return &starter{nd.(*scatter), 3*n - 1}, err
		}
		return nd, err
	}
	res := run(t, cfg)
	if res.Messages != 3*n || res.Steps != 3*n+1 || !res.Quiescent || bad.Load() != 0 {
		t.Errorf("%+v, want %d messages in order, %d steps, quiescent", res, 3*n, 3*n+1)
	}
	if f := fewest.Load(); f >= n/2 {
		t.Errorf("node 1 saw at least %d goroutines at each of its steps; done nodes should have let theirs go", f)
	}
}

// starter is node 1 of TestDoneNodesLetTheirGoroutinesGo: its start sends
// one hop of the given TTL.
type starter struct {
	*scatter
	ttl int
}

func (s *starter) Step(in node.Input, out *node.Output) {
	if in.Kind == node.InCmd {
		out.Done = true
		s.send(out, 2, s.ttl)
		return
	}
	s.scatter.Step(in, out)
}

// A run stopped while some nodes are parked, some are running, and
// messages still reach parked ones: every goroutine returns (goleak), and
// no message restarts a node after the end.
func TestStopWithParkedNodes(t *testing.T) {
	const n = 200
	var steps atomic.Int64
	cfg := config{
		Nodes: n,
		Factory: func(i int) (node.Node, error) {
			return &baller{self: i, n: n}, nil
		},
		Script: []node.Action{{Node: 1, Cmd: node.CmdStart}, {Node: 2, Cmd: node.CmdStart}},
		Stop:   func() bool { return steps.Add(1) >= 5000 },
	}
	for range 5 {
		steps.Store(0)
		res := run(t, cfg)
		if !res.Stopped || res.Quiescent || res.Steps < 5000 {
			t.Errorf("%+v, want stopped after at least 5000 steps", res)
		}
	}
}

// baller: nodes 1 and 2 pass a ball between them for ever, and each also
// sends a note to one of the other nodes, which are done from their first
// step and park between notes.
type baller struct {
	self, n, round int
}

func (p *baller) Step(in node.Input, out *node.Output) {
	if p.self > 2 {
		out.Done = true
		return
	}
	p.round++
	out.Send(3-p.self, hop{})
	out.Send(3+p.round%(p.n-2), hop{})
}
