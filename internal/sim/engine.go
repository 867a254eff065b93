package sim

import (
	"fmt"
	"math/rand/v2"

	"ringlab/internal/node"
	"ringlab/internal/trace"
)

type timerSlot struct {
	id  int
	gen uint32
}

type sim struct {
	cfg       Config
	rng       *rand.Rand
	q         *queue
	nodes     []node.Node // 1-based
	crashed   []bool
	done      []bool
	nDone     int
	nLive     int
	timers    [][]timerSlot // per node: the current generation of each timer id
	lc        []int64
	vc        [][]uint32
	link      map[uint64]int64 // PolicyFIFO with variable delays: last delivery time per link
	out       node.Output
	ev        trace.Event
	evSeq     int64
	flight    int  // messages pending in the queue
	msgEvents bool // send/recv/drop/dup events go to the sink
	nChoice   int  // decisions taken so far (replay position)
	res       Result
	cmds      []node.Cmd // commands of pending actions (item.aux)
	vcs       [][]uint32 // vector clocks of messages in flight (item.aux)
	// message counts by type; the last type is cached to skip the map
	typeIdx    map[string]int
	typeNames  []string
	typeCounts []int64
	lastType   string
	lastIdx    int
}

func newSim(cfg Config) (*sim, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Policy == PolicyRandom && cfg.Delay.Min == cfg.Delay.Max {
		cfg.Delay.Max = cfg.Delay.Min + 9 // reordering needs a spread of latencies
	}
	n := cfg.Nodes
	s := &sim{
		cfg:     cfg,
		rng:     newRand(cfg.Seed),
		q:       newQueue(cfg.Delay.Max + maxExtra(cfg.Faults.Slow)),
		nodes:   make([]node.Node, n+1),
		crashed: make([]bool, n+1),
		done:    make([]bool, n+1),
		nLive:   n,
		timers:  make([][]timerSlot, n+1),
		lc:      make([]int64, n+1),
		res:     Result{ByType: map[string]int64{}},
		typeIdx: map[string]int{},
		lastIdx: -1,
	}
	for i := 1; i <= n; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			return nil, err
		}
		s.nodes[i] = nd
	}
	if cfg.VectorClocks {
		s.vc = make([][]uint32, n+1)
		for i := range s.vc {
			s.vc[i] = make([]uint32, n)
		}
	}
	s.msgEvents = cfg.Sink != nil && cfg.Messages
	if cfg.Policy == PolicyFIFO && (cfg.Delay.Max > cfg.Delay.Min || len(cfg.Faults.Slow) > 0) {
		s.link = map[uint64]int64{}
	}
	for _, a := range cfg.Script {
		s.pushAction(a.At, a)
	}
	return s, nil
}

func maxExtra(slow []Slow) int64 {
	var m int64
	for _, s := range slow {
		m = max(m, s.Extra)
	}
	return m
}

func (s *sim) run() (Result, error) {
	for {
		if s.res.Steps >= s.cfg.MaxSteps {
			s.res.Exhausted = true
			break
		}
		it, ok := s.q.pop()
		if !ok {
			s.res.Quiescent = true
			break
		}
		s.res.Now = s.q.now
		var err error
		switch it.kind {
		case itMsg:
			s.flight--
			err = s.deliver(&it)
		case itTimer:
			err = s.fire(&it)
		case itAction:
			err = s.act(&it)
		}
		if err != nil {
			return s.res, err
		}
		if s.flight == 0 && s.nDone == s.nLive {
			s.res.Quiescent = true
			break
		}
		if s.cfg.Stop != nil && s.cfg.Stop() {
			s.res.Stopped = true
			break
		}
	}
	for k, name := range s.typeNames {
		s.res.ByType[name] = s.typeCounts[k]
	}
	return s.res, nil
}

func (s *sim) deliver(it *item) error {
	to := int(it.to)
	if s.crashed[to] {
		if s.msgEvents {
			s.emitMsg(trace.KindDrop, to, it, "the receiver has crashed")
		}
		s.res.Dropped++
		return nil
	}
	s.lc[to] = max(s.lc[to], it.lc) + 1
	if s.vc != nil {
		for k, v := range s.vcs[it.aux] {
			s.vc[to][k] = max(s.vc[to][k], v)
		}
		if it.kind == itMsg {
			s.vcs[it.aux] = nil // delivered (a duplicate shares it: keep the clock of the first)
		}
		s.vc[to][to-1]++
	}
	if s.msgEvents {
		s.emitMsg(trace.KindRecv, to, it, "")
	}
	return s.step(to, node.Input{Kind: node.InMsg, Now: s.q.now, From: int(it.from), Msg: it.msg})
}

func (s *sim) fire(it *item) error {
	to := int(it.to)
	id, gen := it.timer()
	if s.crashed[to] || !s.timerCurrent(to, id, gen) {
		return nil
	}
	s.tickClock(to)
	return s.step(to, node.Input{Kind: node.InTick, Now: s.q.now, Timer: id})
}

func (s *sim) pushAction(at int64, a node.Action) {
	s.cmds = append(s.cmds, a.Cmd)
	s.q.push(&item{at: at, kind: itAction, to: int32(a.Node), aux: int64(len(s.cmds) - 1)})
}

func (s *sim) act(it *item) error {
	i := int(it.to)
	cmd := s.cmds[it.aux]
	switch cmd {
	case node.CmdCrash:
		if s.crashed[i] {
			return nil
		}
		s.crashed[i] = true
		s.nLive--
		if s.done[i] {
			s.nDone--
		}
		s.timers[i] = nil // pending timers die with the node
		s.tickClock(i)
		s.emit(trace.KindCrash, i)
		return nil
	case node.CmdRestart:
		if !s.crashed[i] {
			return nil
		}
		nd, err := s.cfg.Factory(i)
		if err != nil {
			return err
		}
		s.nodes[i], s.crashed[i], s.done[i] = nd, false, false
		s.nLive++
		s.tickClock(i)
		s.emit(trace.KindRecover, i)
		return s.command(i, node.CmdRecover)
	}
	if s.crashed[i] {
		return nil
	}
	return s.command(i, cmd)
}

func (s *sim) command(i int, c node.Cmd) error {
	s.tickClock(i)
	if s.cfg.Sink != nil {
		s.fill(trace.KindCmd, i)
		s.ev.Cmd = string(c)
		s.cfg.Sink(&s.ev)
	}
	return s.step(i, node.Input{Kind: node.InCmd, Now: s.q.now, Cmd: c})
}

// step runs one input through node i and carries out what it produced.
func (s *sim) step(i int, in node.Input) error {
	s.res.Steps++
	s.out.Reset()
	s.nodes[i].Step(in, &s.out)
	for _, ev := range s.out.Events {
		s.tickClock(i)
		s.emitNode(i, ev)
		if s.cfg.React != nil {
			for _, a := range s.cfg.React(i, ev, s.q.now) {
				s.pushAction(s.q.now+a.At, a)
			}
		}
	}
	for _, t := range s.out.Timers {
		s.setTimer(i, t)
	}
	for _, snd := range s.out.Sends {
		if snd.To < 1 || snd.To > s.cfg.Nodes {
			return fmt.Errorf("node %d sent %s to node %d, outside 1..%d", i, snd.Msg.Type(), snd.To, s.cfg.Nodes)
		}
		s.send(i, snd)
	}
	if s.out.Done && !s.done[i] {
		s.done[i] = true
		s.nDone++
	}
	return nil
}
