package live

import (
	"sync"

	"ringlab/internal/node"
	"ringlab/internal/trace"
)

// action is a scripted or reactive action travelling through an inbox
// (envelope.from == 0), by pointer: a pointer in an interface is not
// boxed, so the script's million start commands, carved out of one array,
// allocate nothing more. Nodes never see it.
type action struct{ cmd node.Cmd }

func (*action) Type() string { return "action" }

// typeCount counts the messages of one type a node sent.
type typeCount struct {
	typ string
	n   int64
}

// peer is one node: its inbox, written by every goroutine, and below it
// the state only the node's own goroutine touches. A million-node run
// keeps a million of these, so it is kept small: what only some runs need
// — a third message type, timers — hangs off a pointer, and the Output a
// step fills is borrowed from a pool (step). It is padded to 192 bytes,
// three whole cache lines, so that neighbours on the ring, which run on
// different cores at once, do not write to one line: the first holds the
// inbox and what senders read, the other two what the node's own
// goroutine writes.
type peer struct {
	inbox

	self      int32
	done      bool // said Done since it last (re)started
	crashed   bool
	clockless bool // nd is a node.Clockless
	nd        node.Node
	lc        int64 // Lamport clock
	steps     int64
	sent      [2]typeCount // messages sent, of the first two types it sent
	more      *[]typeCount // of other types (rare: kept off the small stack's path)
	tm        *timers      // nil until the node first sets a timer
	cur       *chunk       // the overflow being handled
	at        int64        // when the input in hand was taken, in ns since the start; -1 until read (see when)
	_         [32]byte     // to 192 bytes (see above)
}

// loop is the node's goroutine: it handles its inbox and timers until the
// run is over, or until the node is done and has nothing to handle (see
// park). It blocks on its own channel only — not on ctx.Done(), which
// every node would share — and is woken by a stop envelope when the run
// ends (see halt).
//
// A million of these goroutines must fit their first 2 KiB stacks, of
// which Go frames get about 1.1 KiB (the rest is the stack guard), shared
// with the node's Step and whatever it calls (boxing a message calls
// mallocgc). So the path from here to Step is two frames, loop and step:
// loop builds the Input itself, and everything else — nudges, actions,
// drops, the waiting — lives in functions of its own that return before
// the step. A stack that grows stays 4 KiB for good, and a million of
// them cost 2 GB.
func (p *peer) loop(rt *runtime) {
	var in node.Input
	for {
		var e envelope
		if p.cur == nil && p.tm == nil && !p.ovf.Load() {
			// The common case, waited for here: a goroutine woken on a
			// million-node ring comes back through one frame fewer (and
			// its cold stack lines) than through next and wait.
			e = <-p.ch
		} else {
			e = p.next(rt)
		}
		if e.from == stop || rt.halt.Load() {
			break
		}
		isMsg := int64(0)
		// One clock reading an input at most: its Now, and the time of the
		// events its step emits; a clockless node's is taken at its first
		// event, if any.
		p.at = -1
		if !p.clockless {
			p.at = int64(rt.since())
		}
		if e.from > 0 && !p.crashed { // a message: the common case
			p.lc = max(p.lc, e.lc) + 1
			if rt.cfg.Messages {
				p.traceMsg(rt, trace.KindRecv, e.from, p.self, e.msg, "")
			}
			in = node.Input{Kind: node.InMsg, Now: p.now(rt), From: int(e.from), Msg: e.msg}
			isMsg = 1
		} else if !p.admit(rt, e, &in) {
			continue
		}
		p.step(rt, &in, isMsg)
		in = node.Input{} // keep no message alive while waiting
		if p.done && parking && p.cur == nil && p.empty() && p.park() {
			return
		}
	}
	p.g.Store(gone)
	p.stopTimers()
}

// parking is on but in tests that need every goroutine alive (see
// SetParking in export_test.go).
var parking = true

// now is the Input.Now of the input in hand: 0 for a clockless node.
func (p *peer) now(rt *runtime) int64 {
	if p.clockless {
		return 0
	}
	return p.at / int64(rt.cfg.Tick)
}

// when is the time of the input in hand, in ns since the start, for the
// events its step emits: read now if it has not been yet (a clockless
// node's), or -1 in an untimed run, where the collector times the event.
// The emit functions call it only for the events they keep.
func (p *peer) when(rt *runtime) int64 {
	if p.at < 0 && !rt.untimed {
		p.at = int64(rt.since())
	}
	return p.at
}

// park lets the goroutine of a node that is done end, if no timer of the
// node is pending and nothing waits in its inbox; it reports whether the
// goroutine must return. The node stays parked until an item is put in its
// inbox: the sender then starts a new goroutine (inbox.put). A done node
// rarely hears more, so a million-node election ends with its goroutines
// gone, their stacks freed as the announcement passes, and none left to
// stop.
//
// The mark comes first, then the check (see empty): a sender that
// delivers meanwhile either is seen by the check, and the node takes its
// goroutine back, or sees the mark and starts a new one. When both happen,
// one compare-and-swap decides, and the loser leaves the item to the
// winner.
//
//go:noinline
func (p *peer) park() bool {
	if p.tm != nil && (p.tm.armed || len(p.tm.list) > 0) {
		return false
	}
	// From the mark on, the peer may belong to a new goroutine: touch
	// nothing but the inbox's atomics and channel.
	p.g.Store(parked)
	if p.empty() {
		return true
	}
	// An item came in: keep going, unless a sender has already started
	// a new goroutine, or Run has ended the node (halt).
	return !p.g.CompareAndSwap(parked, running)
}

// halt ends the node's part in a run that is over: a parked node is
// marked gone, so that no late message starts it again, and a running one
// gets a stop (it returns on that, or on the first item it sees after the
// halt). Run calls it for every node.
//
// A sender may start a goroutine for an empty inbox: it delivers, the
// node takes the item and parks, and only then does the sender see the
// mark (inbox.put). If that happens between the load and the swap here,
// the new goroutine has nothing to see: so it gets a stop too.
func (p *peer) halt(rt *runtime) {
	for {
		switch p.g.Load() {
		case parked:
			if p.g.CompareAndSwap(parked, gone) {
				return
			}
			// started again since the load: it is running now
		case running:
			p.put(rt, envelope{from: stop}, 0) // and no restart
			// It may have parked before it saw the stop.
			p.g.CompareAndSwap(parked, gone)
			return
		default: // gone: it returned on its own after the halt
			return
		}
	}
}

// wait returns the next inbox item, firing due timers while it waits.
//
//go:noinline
func (p *peer) wait(rt *runtime) envelope {
	tc := p.timerC()
	if tc == nil {
		return <-p.ch
	}
	select {
	case e := <-p.ch:
		return e
	case <-tc:
		p.fire(rt)
		return envelope{from: nudge}
	}
}

// admit handles an inbox item that is not a message to a live node: a
// nudge (see inbox.put), a stop that came in a batch, an action, or a
// message to a crashed node. If the item makes the node step (a command),
// it fills in and returns true; loop runs the step.
//
//go:noinline
func (p *peer) admit(rt *runtime, e envelope, in *node.Input) bool {
	switch {
	case e.from < 0:
		return false
	case e.from == 0:
		return p.act(rt, e.msg.(*action).cmd, in)
	default: // the receiver has crashed
		p.traceMsg(rt, trace.KindDrop, e.from, p.self, e.msg, "the receiver has crashed")
		rt.settle(-1, -1)
		return false
	}
}

// traceMsg emits a message event at the node.
//
//go:noinline
func (p *peer) traceMsg(rt *runtime, kind string, from, to int32, m node.Msg, note string) {
	rt.emitMsg(p, kind, p.lc, from, to, m, note)
}

// act carries out a scripted or reactive action, as sim does. For a
// command it fills in and returns true: the caller runs the step.
func (p *peer) act(rt *runtime, c node.Cmd, in *node.Input) bool {
	switch {
	case c == node.CmdCrash:
		if p.crashed {
			rt.settle(-1, 0)
			return false
		}
		p.crashed = true
		dead := p.stopTimers() // pending timers die with the node
		p.lc++
		rt.emit(p, trace.KindCrash)
		if !p.done {
			rt.markDone(-1) // no longer live: it no longer holds the run up
		}
		rt.settle(-1-dead, 0)
		return false
	case c == node.CmdRestart:
		if !p.crashed {
			rt.settle(-1, 0)
			return false
		}
		nd, err := rt.cfg.Factory(int(p.self))
		if err != nil {
			rt.fail(err)
			return false
		}
		p.nd, p.crashed, p.done = nd, false, false
		_, p.clockless = nd.(node.Clockless)
		if !p.clockless && p.at < 0 { // the node before it was clockless
			p.at = int64(rt.since())
		}
		rt.markDone(+1) // live again, and not done
		p.lc++
		rt.emit(p, trace.KindRecover)
		c = node.CmdRecover
	case p.crashed:
		rt.settle(-1, 0)
		return false
	}
	p.lc++
	rt.emitCmd(p, c)
	*in = node.Input{Kind: node.InCmd, Now: p.now(rt), Cmd: c}
	return true
}

// step runs one input through the node and carries out what it produced.
// isMsg is 1 when the input was a message (it leaves flight when handled).
//
// Counting: the step first adds what it creates (sends, new timers,
// actions) to the counters, then makes it visible, then subtracts what it
// consumed (its input, cancelled timers). When the two cancel out — a
// token forwarded — it touches no shared counter at all.
func (p *peer) step(rt *runtime, in *node.Input, isMsg int64) {
	p.steps++
	out := getOutput()
	p.nd.Step(*in, out)
	var dPending, dFlight int64
	if len(out.Events)+len(out.Timers) > 0 || out.Done || !sendsOK(rt, out) {
		var ok bool
		if dPending, dFlight, ok = p.prepare(rt, out, in.Now, isMsg); !ok {
			putOutput(out)
			return
		}
	} else { // the common case: messages only
		d := int64(len(out.Sends))
		dPending, dFlight = d-1, d-isMsg
		if dPending > 0 {
			rt.pending.Add(dPending)
		}
		if dFlight > 0 {
			rt.flight.Add(dFlight)
		}
	}
	p.sendAll(rt, out)
	putOutput(out)
	rt.settle(min(dPending, 0), min(dFlight, 0))
	if rt.cfg.Stop != nil && rt.cfg.Stop() {
		rt.finish(endStopped)
	}
}

// outputs lends each step the Output it fills. A step never blocks, so
// the steps in progress are about as many as the Ps running them: a
// handful of Outputs, hot in the caches, serve a million nodes — where an
// Output per node cost 136 bytes each, and a cache miss per step.
var outputs = sync.Pool{New: func() any {
	return &node.Output{
		Sends:  make([]node.Send, 0, 4),
		Timers: make([]node.Timer, 0, 2),
		Events: make([]node.Event, 0, 4),
	}
}}

func getOutput() *node.Output { return outputs.Get().(*node.Output) }

// putOutput returns out, emptied, forgetting the messages it held (a
// pooled Output must not keep them alive).
func putOutput(out *node.Output) {
	clear(out.Sends)
	clear(out.Events)
	out.Reset()
	outputs.Put(out)
}

// prepare is the general case of a step before its messages go out:
// events and reactions, timers, errors, the counters' additions, Done.
// It returns the counters' changes, and false if the run failed.
//
//go:noinline
func (p *peer) prepare(rt *runtime, out *node.Output, now int64, isMsg int64) (dPending, dFlight int64, ok bool) {
	var acts []node.Action
	for _, ev := range out.Events {
		p.lc++
		rt.emitNode(p, ev)
		if rt.cfg.React != nil {
			acts = append(acts, rt.cfg.React(int(p.self), ev, now)...)
		}
	}
	for _, a := range acts {
		if a.Node < 1 || a.Node > rt.cfg.Nodes {
			rt.fail(errReact(p.self, a))
			return 0, 0, false
		}
	}
	for _, s := range out.Sends {
		if err := rt.checkSend(p.self, s); err != nil {
			rt.fail(err)
			return 0, 0, false
		}
	}
	added, removed := int64(0), int64(1)
	for _, t := range out.Timers {
		d := p.setTimer(rt, t)
		added += max(d, 0)
		removed -= min(d, 0)
	}
	dPending = int64(len(out.Sends)+len(acts)) + added - removed
	dFlight = int64(len(out.Sends)) - isMsg
	if dPending > 0 {
		rt.pending.Add(dPending)
	}
	if dFlight > 0 {
		rt.flight.Add(dFlight)
	}
	if out.Done && !p.done {
		p.done = true
		rt.markDone(-1)
	}
	for _, a := range acts {
		rt.schedule(rt.since(), a)
	}
	return dPending, dFlight, true
}

// sendsOK reports whether every send goes to a node of the run.
func sendsOK(rt *runtime, out *node.Output) bool {
	for k := range out.Sends {
		if to := out.Sends[k].To; to < 1 || to > rt.cfg.Nodes {
			return false
		}
	}
	return true
}

// sendAll stamps, counts, traces and delivers the step's messages.
func (p *peer) sendAll(rt *runtime, out *node.Output) {
	if rt.cfg.Messages {
		p.traceSends(rt, out)
	}
	for k := range out.Sends {
		s := &out.Sends[k]
		p.lc++
		p.count(s.Msg.Type())
		rt.peers[s.To].put(rt, envelope{from: p.self, lc: p.lc, msg: s.Msg}, int32(s.To))
	}
}

// traceSends emits the send events of the step's messages, with the
// Lamport clocks sendAll is about to stamp on them.
//
//go:noinline
func (p *peer) traceSends(rt *runtime, out *node.Output) {
	for k, s := range out.Sends {
		rt.emitMsg(p, trace.KindSend, p.lc+int64(k)+1, p.self, int32(s.To), s.Msg, "")
	}
}

func (p *peer) count(typ string) {
	for k := range p.sent {
		if c := &p.sent[k]; c.typ == typ || c.n == 0 {
			c.typ = typ
			c.n++
			return
		}
	}
	p.countMore(typ)
}

//go:noinline
func (p *peer) countMore(typ string) {
	if p.more == nil {
		p.more = new([]typeCount)
	}
	more := *p.more
	for k := range more {
		if more[k].typ == typ {
			more[k].n++
			return
		}
	}
	*p.more = append(more, typeCount{typ, 1})
}
