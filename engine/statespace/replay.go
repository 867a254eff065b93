package statespace

import (
	"errors"
	"fmt"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/internal/derive"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// checkClone rebuilds the state at the end of p from the initial state
// and compares its key with k; and checks that s's nodes still have the
// keys they were interned under (no later step changed them through
// memory a Clone shared).
func (m *machine) checkClone(cfg Config, s *state, p []Trans, k []byte) error {
	for j, id := range s.nodes {
		if !s.alive(j + 1) {
			continue
		}
		if got := m.in.ops.AppendKey([]byte{byte(j + 1)}, m.nodeAt(id)); string(got) != m.in.nodeKey[id] {
			return fmt.Errorf("statespace: node %d's state changed after %s although no step was given to it: its Clone shares memory with its original", j+1, FormatPath(p))
		}
	}
	want := string(k)
	rr, err := replay(cfg, m.in, p, nil)
	if err != nil {
		return err
	}
	end := rr.end
	if m.shifting {
		end = m.shift(end)
	}
	if got := end.appendKey(nil, m.in); string(got) != want {
		return fmt.Errorf("statespace: the state after %s differs when rebuilt from the start: a node's Clone shares memory with its original, or its key misses a field", FormatPath(p))
	}
	return nil
}

// newMachine builds the machine and the initial state, with the
// interner in (nil: a fresh one).
func newMachine(cfg Config, sink func(*trace.Event), in *interner) (*machine, *state, error) {
	n := cfg.Nodes
	switch {
	case n < 1 || n > MaxNodes:
		return nil, nil, fmt.Errorf("statespace: need 1..%d nodes, got %d", MaxNodes, n)
	case cfg.Factory == nil:
		return nil, nil, errors.New("statespace: no node factory")
	case cfg.Crashes < 0 || cfg.Drops < 0 || cfg.Restarts < 0 || cfg.Crashes > 255 || cfg.Drops > 255 || cfg.Restarts > 255:
		return nil, nil, errors.New("statespace: fault budgets must be in 0..255")
	}
	if in == nil {
		in = newInterner()
		in.inside = cfg.Within
		in.ops = derive.Ops{Derived: cfg.Derived}
	}
	m := &machine{cfg: cfg, n: n, in: in, sink: sink, lc: make([]int64, n+1)}
	s := &state{
		nodes: make([]uint32, n),
	}
	for i := 1; i <= n; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			return nil, nil, err
		}
		if err := m.in.ops.Check(nd); err != nil {
			return nil, nil, err
		}
		s.nodes[i-1] = m.internNode(i, nd)
	}
	// The initial environment is built once per interner: the replays
	// that judge a search's terminal states share the search's.
	var w *env
	if !m.in.env0Set {
		var cs []check.Property
		if cfg.Checks != nil {
			cs = cfg.Checks()
		}
		w = withMonitor(newEnv(cfg.Workload, cs, cfg.Liveness, n, cfg.Only), cfg.Goal, n)
	}
	script := slices.Clone(cfg.Script)
	slices.SortStableFunc(script, func(a, b node.Action) int { return int(a.At - b.At) })
	for _, a := range script {
		if a.Node < 1 || a.Node > n {
			return nil, nil, fmt.Errorf("statespace: scripted %s for node %d is outside 1..%d", a.Cmd, a.Node, n)
		}
		switch a.Cmd {
		case node.CmdCrash:
			if a.At != 0 {
				return nil, nil, fmt.Errorf("statespace: a scripted crash must be at tick 0 (use the crash budget for the others)")
			}
			s.crashed |= 1 << (a.Node - 1)
			m.emit(trace.KindCrash, a.Node) // a replay's properties see it too
			if w != nil {
				w.fault(a.Node, trace.KindCrash, 0, cfg.Only)
			}
		case node.CmdRestart:
			return nil, nil, fmt.Errorf("statespace: scripted restarts are not modelled (use the restart budget)")
		default:
			s.pend = append(s.pend, pend{node: uint8(a.Node), kind: pendCmd, val: int32(m.in.cmd(command{a.Cmd, a.Arg}))})
		}
	}
	if !m.in.env0Set {
		if w != nil {
			m.in.env0 = m.internEnv(w, nil)
		}
		m.in.env0Set = true
	}
	s.env = m.in.env0
	s.pend = slices.DeleteFunc(s.pend, func(p pend) bool { return !s.alive(int(p.node)) })
	slices.SortStableFunc(s.pend, func(a, b pend) int { return int(a.node) - int(b.node) })
	if len(cfg.From) > 0 {
		var err error
		if s, err = m.stage(s, cfg.From); err != nil {
			return nil, nil, err
		}
	}
	return m, s, nil
}

// stage takes the path of Config.From from s and returns the state it
// reaches, the start of a staged search. The path is taken under the
// asynchronous timer model, with any fault it holds allowed and no state
// constraint; the faults it spent are then forgotten, so that the search
// from there has the budgets of cfg whole. A violation on the way is kept
// in m.staged.
func (m *machine) stage(s *state, path []Trans) (*state, error) {
	cfg := m.cfg
	m.cfg.Timers, m.cfg.Within = TimersAny, nil
	m.cfg.Crashes, m.cfg.Drops, m.cfg.Restarts = 255, 255, 255
	defer func() { m.cfg = cfg }()
	for k, t := range path {
		u, ok := m.find(s, t)
		if !ok {
			return nil, fmt.Errorf("--from-path: step %d: %s is not enabled here (enabled: %s)", k+1, t, FormatPath(m.enabled(s, nil)))
		}
		m.now = int64(k)
		next, v, err := m.step(s, u)
		if err != nil {
			return nil, err
		}
		if v != nil && m.staged == nil {
			m.staged = v
		}
		s = next
	}
	s = s.shallow()
	s.crashes, s.drops, s.restarts = 0, 0, 0
	if cfg.Restarts == 0 {
		for i := 1; i <= m.n; i++ {
			if !s.alive(i) {
				m.purge(s, i) // it never comes back: what is sent to it is lost
			}
		}
	}
	return s, nil
}

// ReplayResult is the end of a replayed path.
type ReplayResult struct {
	Steps, Messages, Dropped int64            // inputs handled, messages sent, messages lost
	ByType                   map[string]int64 // messages sent, by message type
	Terminated               bool             // the path ends in a terminal state
	Violation                *Violation       // the property the path breaks, nil if none
	last                     *Violation       // the one its last step reported, nil if none
	end                      *state
	in                       *interner
}

// Replay takes exactly the transitions of path from the initial state and
// reports every event to sink (nil: none). A label not enabled where it
// comes is an error.
func Replay(cfg Config, path []Trans, sink func(*trace.Event)) (ReplayResult, error) {
	return replay(cfg, nil, path, sink)
}

// replay is Replay with the search's interner (nil: a fresh one), which
// spares printing every message again for each terminal state judged.
func replay(cfg Config, in *interner, path []Trans, sink func(*trace.Event)) (ReplayResult, error) {
	return replayIn(cfg, in, path, -1, sink, nil)
}

// replayMarked is Replay that calls mark with the state after the first
// at steps (a lasso's prefix).
func replayMarked(cfg Config, path []Trans, at int, sink func(*trace.Event), mark func(*machine, *state)) (ReplayResult, error) {
	return replayIn(cfg, nil, path, at, sink, mark)
}

func replayIn(cfg Config, in *interner, path []Trans, at int, sink func(*trace.Event), mark func(*machine, *state)) (ReplayResult, error) {
	var rr ReplayResult
	rr.ByType = map[string]int64{}
	count := func(e *trace.Event) {
		switch e.Kind {
		case trace.KindSend:
			rr.Messages++
			rr.ByType[e.Msg.Type()]++
		case trace.KindDrop:
			rr.Dropped++
		}
		if sink != nil {
			sink(e)
		}
	}
	m, s, err := newMachine(cfg, count, in)
	if err != nil {
		return rr, err
	}
	rr.Violation = m.staged
	for k, t := range path {
		if k == at {
			mark(m, s)
		}
		u, ok := m.find(s, t)
		if !ok {
			return rr, &notEnabled{fmt.Sprintf("step %d: %s is not enabled here (enabled: %s)", k+1, t, FormatPath(m.enabled(s, nil)))}
		}
		next, v, err := m.step(s, u)
		if err != nil {
			return rr, err
		}
		if v != nil && rr.Violation == nil {
			rr.Violation = v
		}
		if k == len(path)-1 {
			rr.last = v
		}
		rr.Steps++
		s = next
	}
	if len(path) == at {
		mark(m, s)
	}
	rr.Terminated, rr.end, rr.in = m.terminal(s), s, m.in
	return rr, nil
}
