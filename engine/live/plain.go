package live

// The plain runtime: literally one goroutine and one inbox channel per
// node. Read this file first; the turn scheduler (turns.go and friends)
// runs the same nodes with the same events, faster and with few
// goroutines, for runs of a million nodes.
//
//   - A send puts a letter in the receiver's inbox channel. A sender whose
//     receiver's inbox is full keeps taking letters out of its own inbox
//     while it waits (post), so no ring of full inboxes can deadlock, and
//     every link stays FIFO.
//   - Timers and actions due later wait in the node's own agenda; the
//     node's goroutine sleeps on one time.Timer set to the earliest.
//   - The run ends when no letter is pending (a message in flight, an
//     action not yet carried out) and every live node is done or no timer
//     is set: counted under one mutex, changed by each step at once.
//   - The Sink is called under a mutex from the node's own goroutine, so
//     calls are serialized and a receive is always reported after its send.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// inboxSize is each inbox channel's buffer, in letters.
const inboxSize = 64

// letter is what goes through an inbox: a message (from > 0) or an action.
type letter struct {
	from int
	lc   int64    // the sender's Lamport clock
	vc   []uint32 // the sender's vector clock (config.VectorClocks)
	msg  node.Msg
	cmd  node.Cmd      // an action's command
	arg  int           // its parameter (node.Action.Arg)
	due  time.Duration // an action's time since the start (0: at once)
}

// later is an agenda entry: a timer (cmd == "") or an action, due later.
type later struct {
	due   time.Duration
	timer int
	cmd   node.Cmd
	arg   int
}

// plainNode is one node; only its goroutine touches it (but inbox).
type plainNode struct {
	id      int
	nd      node.Node
	inbox   chan letter
	backlog []letter // letters taken out of inbox while waiting to send
	agenda  []later
	out     node.Output
	at      time.Duration // when the input in hand was taken
	lc      int64
	vc      []uint32
	done    bool
	crashed bool
	steps   int64
	sent    map[string]int64
}

// count is a change to the run's counters.
type count struct{ pending, timers, notDone int64 }

type plainRun struct {
	cfg   config
	nodes []*plainNode // 1-based
	start time.Time
	quit  <-chan struct{} // closed at the end: every goroutine returns

	mu                       sync.Mutex // guards the counters and why
	pending, timers, notDone int64
	why                      endReason
	err                      error
	end                      chan struct{} // closed when why is set

	sinkMu sync.Mutex // serializes Sink; guards seq and t
	seq, t int64
}

// runPlain runs cfg on the plain runtime (see above); it returns when the
// run has ended and every goroutine has returned, with ctx.Err() if ctx
// was cancelled first.
func runPlain(ctx context.Context, cfg config) (result, error) {
	if err := cfg.validate(); err != nil {
		return result{}, err
	}
	r := &plainRun{cfg: cfg, nodes: make([]*plainNode, cfg.Nodes+1), end: make(chan struct{}), notDone: int64(cfg.Nodes)}
	for i := 1; i <= cfg.Nodes; i++ {
		nd, err := cfg.Factory(i)
		if err != nil {
			return result{}, err
		}
		n := &plainNode{id: i, nd: nd, inbox: make(chan letter, inboxSize), sent: map[string]int64{}}
		if cfg.VectorClocks {
			n.vc = make([]uint32, cfg.Nodes)
		}
		r.nodes[i] = n
	}
	for _, a := range cfg.Script { // in script order, before any goroutine starts
		n := r.nodes[a.Node]
		n.backlog = append(n.backlog, letter{cmd: a.Cmd, arg: a.Arg, due: time.Duration(a.At) * cfg.Tick})
		r.pending++
	}
	// The nodes watch runCtx themselves, so that they stop at once on
	// Ctrl-C or the timeout however many of them are busy.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.Timeout > 0 {
		var stop context.CancelFunc
		runCtx, stop = context.WithTimeoutCause(runCtx, cfg.Timeout, errTimedOut)
		defer stop()
	}
	r.quit = runCtx.Done()
	r.start = time.Now()
	var wg sync.WaitGroup
	for _, n := range r.nodes[1:] {
		wg.Go(func() { r.loop(n) })
	}
	r.change(count{}) // a run with nothing to do ends here
	var res result
	var err error
	var progress <-chan time.Time
	if cfg.Progress != nil {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		progress = t.C
	}
wait:
	for {
		select {
		case <-r.end:
			break wait
		case <-runCtx.Done():
			res.Exhausted = context.Cause(runCtx) == errTimedOut
			err = ctx.Err()
			break wait
		case <-progress:
			r.mu.Lock()
			p := Progress{Elapsed: r.since(), InFlight: r.pending, NotDone: r.notDone}
			r.mu.Unlock()
			cfg.Progress(p)
		}
	}
	cancel()
	wg.Wait()
	res.Elapsed = time.Since(r.start)
	res.Now = int64(res.Elapsed / cfg.Tick)
	if !res.Exhausted && err == nil {
		res.Quiescent, res.Stopped = r.why == endQuiescent, r.why == endStopped
		if r.why == endFailed {
			err = r.err
		}
	}
	res.ByType = map[string]int64{}
	for _, n := range r.nodes[1:] {
		res.Steps += n.steps
		for typ, k := range n.sent {
			res.Messages += k
			res.ByType[typ] += k
		}
	}
	return res, err
}

// loop is node n's goroutine: letters in the order they came, and agenda
// entries when they fall due.
func (r *plainRun) loop(n *plainNode) {
	clock := time.NewTimer(time.Hour)
	defer clock.Stop()
	for !r.over() {
		if len(n.backlog) > 0 {
			l := n.backlog[0]
			n.backlog[0] = letter{}
			n.backlog = n.backlog[1:]
			r.handle(n, l)
			continue
		}
		clock.Stop()
		if len(n.agenda) > 0 {
			clock.Reset(n.agenda[0].due - r.since())
		}
		select {
		case l := <-n.inbox:
			r.handle(n, l)
		case <-clock.C:
			n.at = r.since()
			for len(n.agenda) > 0 && n.agenda[0].due <= n.at && !r.over() {
				e := n.agenda[0]
				n.agenda = slices.Delete(n.agenda, 0, 1)
				if e.cmd == "" {
					r.step(n, node.Input{Kind: node.InTick, Timer: e.timer}, count{timers: -1})
				} else {
					r.act(n, e.cmd, e.arg, count{pending: -1})
				}
			}
		case <-r.quit:
			return
		}
	}
}

// handle takes one letter: a message, or an action (into the agenda if it
// is not due yet).
func (r *plainRun) handle(n *plainNode, l letter) {
	n.at = r.since()
	switch {
	case l.from == 0 && l.due > n.at:
		n.schedule(later{due: l.due, cmd: l.cmd, arg: l.arg})
	case l.from == 0:
		r.act(n, l.cmd, l.arg, count{pending: -1})
	case n.crashed:
		r.emit(n, trace.Event{Kind: trace.KindDrop, From: l.from, To: n.id, Note: "the receiver has crashed"}, l.msg)
		r.change(count{pending: -1})
	default:
		n.lc = max(n.lc, l.lc) + 1
		if n.vc != nil {
			for k, v := range l.vc {
				n.vc[k] = max(n.vc[k], v)
			}
			n.vc[n.id-1]++
		}
		r.emit(n, trace.Event{Kind: trace.KindRecv, From: l.from, To: n.id}, l.msg)
		r.step(n, node.Input{Kind: node.InMsg, From: l.from, Msg: l.msg}, count{pending: -1})
	}
}

// act carries out an action: a crash, a restart, or a command.
func (r *plainRun) act(n *plainNode, cmd node.Cmd, arg int, used count) {
	switch {
	case cmd == node.CmdCrash && !n.crashed:
		n.crashed = true
		if r.cfg.Workload != nil {
			r.cfg.Workload.Crash(n.id)
		}
		n.tick()
		r.emit(n, trace.Event{Kind: trace.KindCrash}, nil)
		if !n.done {
			used.notDone = -1 // no longer live: it no longer holds the run up
		}
		n.agenda = slices.DeleteFunc(n.agenda, func(e later) bool { // its timers die with it
			if e.cmd == "" {
				used.timers--
			}
			return e.cmd == ""
		})
		r.change(used)
		return
	case cmd == node.CmdRestart && n.crashed:
		nd, err := r.cfg.Factory(n.id)
		if err != nil {
			r.finish(endFailed, err)
			return
		}
		n.nd, n.crashed, n.done = nd, false, false
		if r.cfg.Workload != nil {
			r.cfg.Workload.Restart(n.id)
		}
		used.notDone = +1
		n.tick()
		r.emit(n, trace.Event{Kind: trace.KindRecover}, nil)
		cmd = node.CmdRecover
	case n.crashed || cmd == node.CmdCrash || cmd == node.CmdRestart:
		r.change(used) // nothing to do
		return
	}
	n.tick()
	if !r.cfg.Skip.Has(trace.KindCmd) {
		r.emit(n, trace.Event{Kind: trace.KindCmd, Cmd: string(cmd), Arg: arg}, nil)
	}
	r.step(n, node.Input{Kind: node.InCmd, Cmd: cmd, Arg: arg}, used)
}

// step runs one input through the node. What it changes in the counters
// is applied at once, before any of its letters leaves: so the run never
// looks over while its work is under way.
func (r *plainRun) step(n *plainNode, in node.Input, used count) {
	n.steps++
	out := &n.out
	out.Reset()
	out.Now = r.ticks(n)
	n.nd.Step(in, out)
	var acts []node.Action
	for _, ev := range out.Events {
		n.tick()
		e := trace.Event{Kind: trace.NodeKind(ev.Kind), State: ev.State, Note: ev.Note}
		if ev.Kind == node.EvLeader {
			e.Leader, e.Round = &ev.Leader, ev.Round
		}
		if !r.cfg.Skip.HasNode(ev.Kind) {
			r.emit(n, e, nil)
		}
		if r.cfg.Workload != nil {
			acts = append(acts, r.cfg.Workload.React(n.id, ev, out.Now)...)
		}
	}
	for _, s := range out.Sends {
		if s.To < 1 || s.To > r.cfg.Nodes {
			err := fmt.Errorf("node %d sent %s to node %d, outside 1..%d", n.id, s.Msg.Type(), s.To, r.cfg.Nodes)
			r.finish(endFailed, err)
			return
		}
	}
	for _, a := range acts {
		if a.Node < 1 || a.Node > r.cfg.Nodes {
			r.finish(endFailed, errReact(n.id, a))
			return
		}
	}
	c := used
	c.pending += int64(len(out.Sends) + len(acts))
	if out.Done != n.done {
		n.done = out.Done
		c.notDone++
		if out.Done {
			c.notDone -= 2
		}
	}
	for _, t := range out.Timers { // a timer replaces the pending one of its id
		before := len(n.agenda)
		n.agenda = slices.DeleteFunc(n.agenda, func(e later) bool { return e.cmd == "" && e.timer == t.ID })
		c.timers -= int64(before - len(n.agenda))
		if t.After >= 0 {
			n.schedule(later{due: n.at + time.Duration(t.After)*r.cfg.Tick, timer: t.ID})
			c.timers++
		}
	}
	r.change(c)
	for _, a := range acts {
		l := letter{cmd: a.Cmd, arg: a.Arg}
		if a.At > 0 {
			l.due = n.at + time.Duration(a.At)*r.cfg.Tick
		}
		r.post(n, a.Node, l)
	}
	for _, s := range out.Sends {
		n.tick()
		n.sent[s.Msg.Type()]++
		r.emit(n, trace.Event{Kind: trace.KindSend, From: n.id, To: s.To}, s.Msg)
		r.post(n, s.To, letter{from: n.id, lc: n.lc, vc: slices.Clone(n.vc), msg: s.Msg})
	}
	clear(out.Sends) // keep no message alive
	if r.cfg.Stop != nil && r.cfg.Stop() {
		r.finish(endStopped, nil)
	}
}

// post puts l in node to's inbox. While that inbox is full it keeps
// taking letters out of n's own, so that two nodes (or a ring) sending
// to each other's full inboxes never wait for each other forever.
func (r *plainRun) post(n *plainNode, to int, l letter) {
	for {
		select {
		case r.nodes[to].inbox <- l:
			return
		case m := <-n.inbox:
			n.backlog = append(n.backlog, m)
		case <-r.quit:
			return
		}
	}
}

// emit reports an event at node n to the Sink, numbered, at n's clocks;
// m is a message event's message.
func (r *plainRun) emit(n *plainNode, e trace.Event, m node.Msg) {
	if r.cfg.Sink == nil || r.cfg.Skip.Has(e.Kind) || (e.From > 0 && !r.cfg.Messages) {
		return
	}
	ev := e // on the heap only when reported: the Sink takes its address
	if m != nil {
		ev.Msg = trace.WrapMsg(m)
	}
	ev.V, ev.Node, ev.LC, ev.VC = trace.Version, n.id, n.lc, slices.Clone(n.vc)
	r.sinkMu.Lock()
	defer r.sinkMu.Unlock()
	r.seq++
	r.t = max(r.t, int64(n.at)) // events of several nodes may come slightly out of time order
	ev.Seq, ev.T = r.seq, r.t
	r.cfg.Sink(&ev)
}

// change applies c to the counters, and ends the run if nothing is left.
func (r *plainRun) change(c count) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending += c.pending
	r.timers += c.timers
	r.notDone += c.notDone
	if r.pending == 0 && (r.notDone == 0 || r.timers == 0) {
		r.finishLocked(endQuiescent, nil)
	}
}

func (r *plainRun) finish(why endReason, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finishLocked(why, err)
}

// finishLocked ends the run for why, unless it has ended already.
func (r *plainRun) finishLocked(why endReason, err error) {
	if r.why == endNone {
		r.why, r.err = why, err
		close(r.end)
	}
}

// over reports whether the run has ended.
func (r *plainRun) over() bool {
	select {
	case <-r.quit:
		return true
	default:
		return false
	}
}

// errTimedOut is the cause of a run's end at config.Timeout.
var errTimedOut = errors.New("timed out")

func (r *plainRun) since() time.Duration     { return time.Since(r.start) }
func (r *plainRun) ticks(n *plainNode) int64 { return int64(n.at / r.cfg.Tick) }

// schedule puts e in n's agenda, after every entry due no later.
func (n *plainNode) schedule(e later) {
	i, _ := slices.BinarySearchFunc(n.agenda, e.due+1, func(x later, due time.Duration) int { return cmp.Compare(x.due, due) })
	n.agenda = slices.Insert(n.agenda, i, e)
}

// tick advances n's clocks for an event at n.
func (n *plainNode) tick() {
	n.lc++
	if n.vc != nil {
		n.vc[n.id-1]++
	}
}
