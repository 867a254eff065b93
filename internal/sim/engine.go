package sim

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"unsafe"

	"ringlab/internal/node"
	"ringlab/internal/trace"
)

type timerSlot struct {
	id  int
	gen uint32
}

// nodeState is what the engine keeps per node, in one place, so that a
// delivery touches one cache line.
type nodeState struct {
	nd      node.Node
	lc      int64 // Lamport clock
	crashed bool
	done    bool
}

type sim struct {
	cfg         Config
	rng         *rand.Rand
	q           *queue
	nodes       []nodeState // 1-based
	nDone       int
	nLive       int
	timers      [][]timerSlot // per node: the current generation of each timer id (nil until a node sets one)
	vc          [][]uint32
	link        map[uint64]int64 // PolicyFIFO with variable delays: last delivery time per link
	out         node.Output
	ev          trace.Event
	evSeq       int64
	flight      int  // messages pending in the queue
	msgEvents   bool // send/recv/drop/dup events go to the sink
	prefetching bool // the nodes are too many for the caches: prefetch (see prefetchAhead)
	nChoice     int  // decisions taken so far (replay position)
	res         Result
	cmds        []node.Cmd // commands of pending actions pushed during the run (slot.aux)
	vcs         [][]uint32 // vector clocks of messages in flight (slot.aux)
	leaders     []int      // storage for the Leader of leader events, handed out one by one
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
		q:       newQueue(cfg.Delay.Max+maxExtra(cfg.Faults.Slow), sortedScript(cfg.Script)),
		nodes:   make([]nodeState, n+1),
		nLive:   n,
		res:     Result{ByType: map[string]int64{}},
		typeIdx: map[string]int{},
		lastIdx: -1,
	}
	for i := 1; i <= n; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			return nil, err
		}
		s.nodes[i].nd = nd
	}
	if cfg.VectorClocks {
		s.vc = make([][]uint32, n+1)
		for i := range s.vc {
			s.vc[i] = make([]uint32, n)
		}
	}
	s.msgEvents = cfg.Sink != nil && cfg.Messages
	s.prefetching = n >= prefetchNodes
	if cfg.Policy == PolicyFIFO && (cfg.Delay.Max > cfg.Delay.Min || len(cfg.Faults.Slow) > 0) {
		s.link = map[uint64]int64{}
	}
	// The script's actions take the first sequence numbers (see queue).
	s.q.seq = uint64(len(cfg.Script))
	return s, nil
}

// sortedScript returns the script in the order its actions are due: by
// time, and in script order at the same time. It copies only if it must.
func sortedScript(script []node.Action) []node.Action {
	byAt := func(a, b node.Action) int { return cmp.Compare(a.At, b.At) }
	if slices.IsSortedFunc(script, byAt) {
		return script
	}
	script = slices.Clone(script)
	slices.SortStableFunc(script, byAt)
	return script
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
		switch {
		case it.from > 0:
			s.flight--
			if s.prefetching {
				s.prefetchAhead()
			}
			err = s.deliver(it)
		case it.from == slotTimer:
			err = s.fire(it)
		case it.from == slotAction:
			err = s.act(int(it.to), s.cmds[it.aux])
		default:
			err = s.act(int(it.to), s.q.script[it.aux].Cmd)
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

// Prefetch distances, in items of the current tick: the node state of the
// receiver of the item this far ahead, then its node, read through the
// state fetched earlier. On a large ring the receivers of one tick are
// scattered, and without this each delivery waits on two cache misses.
const (
	aheadState    = 16
	aheadNode     = 8
	prefetchNodes = 1 << 14 // below this many nodes, they stay in the caches
)

func (s *sim) prefetchAhead() {
	next := s.q.ahead()
	if len(next) > aheadNode {
		nd := s.nodes[next[aheadNode].to].nd
		prefetch((*[2]unsafe.Pointer)(unsafe.Pointer(&nd))[1]) // the node's data word
		if len(next) > aheadState {
			prefetch(unsafe.Pointer(&s.nodes[next[aheadState].to]))
		}
	}
}

func (s *sim) deliver(it *slot) error {
	to := int(it.to)
	ns := &s.nodes[to]
	if ns.crashed {
		if s.msgEvents {
			s.emitMsg(trace.KindDrop, to, it, "the receiver has crashed")
		}
		s.res.Dropped++
		return nil
	}
	ns.lc = max(ns.lc, it.lc) + 1
	if s.vc != nil {
		for k, v := range s.vcs[it.aux] {
			s.vc[to][k] = max(s.vc[to][k], v)
		}
		s.vcs[it.aux] = nil // delivered (a duplicate shares it: keep the clock of the first)
		s.vc[to][to-1]++
	}
	if s.msgEvents {
		s.emitMsg(trace.KindRecv, to, it, "")
	}
	s.begin()
	ns.nd.Step(node.Input{Kind: node.InMsg, Now: s.q.now, From: int(it.from), Msg: it.msg}, &s.out)
	return s.carryOut(to)
}

func (s *sim) fire(it *slot) error {
	to := int(it.to)
	id, gen := it.timer()
	if s.nodes[to].crashed || !s.timerCurrent(to, id, gen) {
		return nil
	}
	s.tickClock(to)
	s.begin()
	s.nodes[to].nd.Step(node.Input{Kind: node.InTick, Now: s.q.now, Timer: id}, &s.out)
	return s.carryOut(to)
}

func (s *sim) pushAction(at int64, a node.Action) {
	s.cmds = append(s.cmds, a.Cmd)
	s.q.push(at, &slot{from: slotAction, to: int32(a.Node), aux: int64(len(s.cmds) - 1)})
}

func (s *sim) act(i int, cmd node.Cmd) error {
	ns := &s.nodes[i]
	switch cmd {
	case node.CmdCrash:
		if ns.crashed {
			return nil
		}
		ns.crashed = true
		s.nLive--
		if ns.done {
			s.nDone--
		}
		if s.timers != nil {
			s.timers[i] = nil // pending timers die with the node
		}
		s.tickClock(i)
		s.emit(trace.KindCrash, i)
		return nil
	case node.CmdRestart:
		if !ns.crashed {
			return nil
		}
		nd, err := s.cfg.Factory(i)
		if err != nil {
			return err
		}
		ns.nd, ns.crashed, ns.done = nd, false, false
		s.nLive++
		s.tickClock(i)
		s.emit(trace.KindRecover, i)
		return s.command(i, node.CmdRecover)
	}
	if ns.crashed {
		return nil
	}
	return s.command(i, cmd)
}

func (s *sim) command(i int, c node.Cmd) error {
	s.tickClock(i)
	if s.cfg.Sink != nil && !s.cfg.Skip.Has(trace.KindCmd) {
		s.fill(trace.KindCmd, i)
		s.ev.Cmd = string(c)
		s.cfg.Sink(&s.ev)
	}
	s.begin()
	s.nodes[i].nd.Step(node.Input{Kind: node.InCmd, Now: s.q.now, Cmd: c}, &s.out)
	return s.carryOut(i)
}

// A step runs one input through a node: begin, the node's Step, then
// carryOut. The callers make the Step call themselves, with the Input as a
// literal in the call: passed through a function, the 64-byte Input goes
// through memory (and a store-forwarding stall) on every message.
func (s *sim) begin() {
	s.res.Steps++
	s.out.Reset()
}

// carryOut carries out what node i's step produced.
func (s *sim) carryOut(i int) error {
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
	if s.out.Done && !s.nodes[i].done {
		s.nodes[i].done = true
		s.nDone++
	}
	return nil
}
