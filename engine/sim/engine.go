package sim

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"ringlab/engine/node"
	"ringlab/engine/trace"
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
	cfg         config
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
	cmdEvents   bool // cmd events go to the sink
	plain       bool // a message needs no fault, latency draw, link order or clock vector (see send)
	batch       bool // plain, and no Stop to ask after each step: deliverRun may run through a tick (fastpath.go)
	prefetching bool // the nodes are too many for the caches: prefetch (prefetch.go)
	// The nodes' data, when the factory laid them out evenly in memory
	// (node i at ndBase + i*ndStride; ndStride 0 otherwise): see layout.
	ndBase, ndStride uintptr
	nChoice          int // decisions taken so far (replay position)
	res              result
	cmds             []node.Action // pending actions pushed during the run (slot.aux)
	vcs              [][]uint32    // vector clocks of messages in flight (slot.aux)
	leaders          []int         // storage for the Leader of leader events, handed out one by one
	// message counts by type; the last type is cached to skip the map
	typeIdx    map[string]int
	typeNames  []string
	typeCounts []int64
	lastType   string
	lastIdx    int
}

func newSim(cfg config) (*sim, error) {
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
		res:     result{ByType: map[string]int64{}},
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
	s.cmdEvents = cfg.Sink != nil && !cfg.Skip.Has(trace.KindCmd)
	s.prefetching = n >= prefetchNodes && !cfg.Unoptimized
	if s.prefetching {
		s.ndBase, s.ndStride = layout(s.nodes)
	}
	if cfg.Policy == PolicyFIFO && (cfg.Delay.Max > cfg.Delay.Min || len(cfg.Faults.Slow) > 0) {
		s.link = map[uint64]int64{}
	}
	f := &cfg.Faults
	s.plain = s.vc == nil && !s.msgEvents && s.link == nil && cfg.Delay.Min == cfg.Delay.Max &&
		f.Drop == 0 && f.Dup == 0 && len(f.Partitions) == 0 && len(f.Slow) == 0
	s.batch = s.plain && cfg.Stop == nil && !cfg.Unoptimized
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

func (s *sim) run() (result, error) {
	err := s.loop()
	s.res.Now = s.q.now // the time of the last item: pop moves time only to an item
	s.res.Unapplied = s.unapplied()
	for _, k := range s.typeCounts {
		s.res.Messages += k
	}
	if err != nil {
		return s.res, err
	}
	for k, name := range s.typeNames {
		s.res.ByType[name] = s.typeCounts[k]
	}
	return s.res, nil
}

// pollEvery is how many items loop handles between looks at Cancel, the
// Deadline and Progress: often enough to stop within a millisecond or so,
// rarely enough to cost nothing.
const pollEvery = 4096

// loop handles items until the run ends, and says why in s.res.
func (s *sim) loop() error {
	nextPoll, nextEvPoll := int64(pollEvery), s.evSeq+pollEvery
	for items := 0; s.res.Steps < s.cfg.MaxSteps; items++ {
		// deliverRun handles up to a chunk of messages per item: count
		// steps too, so that a poll is never more than a chunk late. And
		// count the events reported: a thousand nodes asking at once for
		// the critical section report a million sends before the first
		// step, each written by the sink (to a slow pipe, perhaps).
		if items == pollEvery || s.res.Steps >= nextPoll || s.evSeq >= nextEvPoll {
			items, nextPoll, nextEvPoll = 0, s.res.Steps+pollEvery, s.evSeq+pollEvery
			if s.interrupted() {
				return nil
			}
		}
		it := s.q.pop()
		if it == nil {
			s.res.Quiescent = true
			return nil
		}
		var err error
		switch {
		case it.from > 0 && s.batch:
			err = s.deliverRun(it)
		case it.from > 0:
			err = s.deliver(it)
		default:
			err = s.control(it)
		}
		if err != nil {
			return err
		}
		if s.flight == 0 && s.nDone == s.nLive && s.q.next >= len(s.q.script) {
			s.res.Quiescent = true
			return nil
		}
		if s.cfg.Stop != nil && s.cfg.Stop() {
			s.res.Stopped = true
			return nil
		}
	}
	s.res.Exhausted = true
	return nil
}

// interrupted looks at Cancel and the Deadline, records why the run must
// end if it must, and reports progress.
func (s *sim) interrupted() bool {
	select {
	case <-s.cfg.Cancel:
		s.res.Interrupted = true
		return true
	default:
	}
	if !s.cfg.Deadline.IsZero() && time.Now().After(s.cfg.Deadline) {
		s.res.TimedOut = true
		return true
	}
	if s.cfg.Progress != nil {
		s.cfg.Progress(s.res)
	}
	return false
}

// unapplied lists the fault windows that were due after the run's end.
func (s *sim) unapplied() []string {
	var out []string
	for _, p := range s.cfg.Faults.Partitions {
		if p.From > s.res.Now {
			out = append(out, fmt.Sprintf("partition %s@%d-%d never opened: the run ended at t=%d", joinInts(p.Group), p.From, p.Until, s.res.Now))
		}
	}
	for _, sl := range s.cfg.Faults.Slow {
		if sl.From > s.res.Now {
			out = append(out, fmt.Sprintf("slow %d+%d@%d-%d never opened: the run ended at t=%d", sl.Node, sl.Extra, sl.From, sl.Until, s.res.Now))
		}
	}
	return out
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// control handles an item that is not a message: a timer or an action.
func (s *sim) control(it *slot) error {
	switch it.from {
	case slotTimer:
		return s.fire(it)
	case slotAction:
		return s.act(int(it.to), s.cmds[it.aux])
	}
	return s.act(int(it.to), s.q.script[it.aux])
}

// deliver hands a message to its receiver.
func (s *sim) deliver(it *slot) error {
	s.flight--
	if s.prefetching {
		s.prefetchAhead()
	}
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
	s.out.Now = s.q.now
	ns.nd.Step(node.Input{Kind: node.InMsg, From: int(it.from), Msg: it.msg}, &s.out)
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
	s.out.Now = s.q.now
	s.nodes[to].nd.Step(node.Input{Kind: node.InTick, Timer: id}, &s.out)
	return s.carryOut(to)
}

func (s *sim) pushAction(at int64, a node.Action) {
	s.cmds = append(s.cmds, a)
	s.q.push(at, &slot{from: slotAction, to: int32(a.Node), aux: int64(len(s.cmds) - 1)})
}

func (s *sim) act(i int, a node.Action) error {
	ns := &s.nodes[i]
	switch a.Cmd {
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
		if s.cfg.Workload != nil {
			s.cfg.Workload.Crash(i)
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
		if s.cfg.Workload != nil {
			s.cfg.Workload.Restart(i)
		}
		s.tickClock(i)
		s.emit(trace.KindRecover, i)
		return s.command(i, node.CmdRecover, 0)
	}
	if ns.crashed {
		return nil
	}
	return s.command(i, a.Cmd, a.Arg)
}

func (s *sim) command(i int, c node.Cmd, arg int) error {
	s.tickClock(i)
	if s.cmdEvents {
		s.fill(trace.KindCmd, i)
		s.ev.Cmd, s.ev.Arg = string(c), arg
		s.cfg.Sink(&s.ev)
	}
	s.begin()
	s.out.Now = s.q.now
	s.nodes[i].nd.Step(node.Input{Kind: node.InCmd, Cmd: c, Arg: arg}, &s.out)
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
		if s.cfg.Workload != nil {
			for _, a := range s.cfg.Workload.React(i, ev, s.q.now) {
				s.pushAction(s.q.now+a.At, a)
			}
		}
	}
	for _, t := range s.out.Timers {
		s.setTimer(i, t)
	}
	for k := range s.out.Sends {
		snd := &s.out.Sends[k]
		if snd.To < 1 || snd.To > s.cfg.Nodes {
			return fmt.Errorf("node %d sent %s to node %d, outside 1..%d", i, snd.Msg.Type(), snd.To, s.cfg.Nodes)
		}
		s.send(i, snd)
	}
	if ns := &s.nodes[i]; s.out.Done != ns.done {
		s.setDone(ns, s.out.Done)
	}
	return nil
}

// setDone records what a node's last step said of Done: a node that has
// work again (a Bully node told to suspect the leader) holds the run up
// again, until a step of its says Done once more.
func (s *sim) setDone(ns *nodeState, done bool) {
	ns.done = done
	if done {
		s.nDone++
	} else {
		s.nDone--
	}
}
