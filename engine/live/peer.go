package live

import (
	"slices"
	"time"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// peer is one node: its inbox, which every goroutine may append to, and
// the state that only the node's own goroutine touches.
type peer struct {
	inbox

	self    int
	nd      node.Node
	done    bool // said Done since it last (re)started
	crashed bool
	lc      int64         // Lamport clock
	vc      []uint32      // vector clock; nil without config.VectorClocks
	at      time.Duration // when the input in hand was taken (rt.since)
	timers  map[int]*timer
}

// worker is what a node goroutine keeps from node to node (see work):
// the storage of a step's output, and what the goroutine's steps counted.
// Kept per goroutine rather than per node, none of it costs a million
// nodes a million allocations.
type worker struct {
	out    node.Output  // what a step produced; reused from step to step
	spares [][]envelope // emptied inbox storage, for the next idle node sent to (spare.go)
	next   *peer        // a node readied by this goroutine that waits for its turn (see admit)
	streak int          // items handled since the turn last came from the ready list
	tally
}

// tally is what a node goroutine's steps counted.
type tally struct {
	steps int64       // inputs handled
	sent  []typeCount // messages sent, by type
}

// typeCount counts the messages of one type a node sent. A run has few
// message types: a short list is cheaper than a map per node.
type typeCount struct {
	typ string
	n   int64
}

// change is what a step does to the run's termination counters (see
// runtime.mu).
type change struct {
	flight, queued, notDone int64
}

// loop handles node p's inbox on w's goroutine, holding a turn, until it
// is empty; it then gives the turn back and returns the node that the
// goroutine must run next, if any (see work). It returns nil at once when
// the run is over.
func (p *peer) loop(rt *runtime, w *worker) *peer {
	for n := 1; ; n++ {
		e, ok := p.take(w)
		if !ok {
			return rt.release(w)
		}
		if rt.over.Load() {
			return nil
		}
		p.handle(rt, w, e)
		w.streak++
		if n%turnLen == 0 {
			p.yield(rt, w)
		}
	}
}

// handle handles one inbox item.
func (p *peer) handle(rt *runtime, w *worker, e envelope) {
	p.at = rt.since()
	if e.from > 0 {
		p.receive(rt, w, e)
		return
	}
	a := e.msg.(*action)
	if a.tm != nil {
		p.fire(rt, w, a.tm)
		return
	}
	p.act(rt, w, a)
}

// receive handles a message: the node steps on it, or drops it if it has
// crashed.
func (p *peer) receive(rt *runtime, w *worker, e envelope) {
	if p.crashed {
		rt.emitMsg(p, trace.KindDrop, p.lc, e.from, p.self, e.msg, "the receiver has crashed")
		rt.account(change{flight: -1})
		return
	}
	p.lc = max(p.lc, e.lc) + 1
	if p.vc != nil {
		for k, v := range e.vc {
			p.vc[k] = max(p.vc[k], v)
		}
		p.vc[p.self-1]++
	}
	rt.emitMsg(p, trace.KindRecv, p.lc, e.from, p.self, e.msg, "")
	p.step(rt, w, node.Input{Kind: node.InMsg, From: e.from, Msg: e.msg}, change{flight: -1})
}

// act carries out a scripted or reactive action, as sim does.
func (p *peer) act(rt *runtime, w *worker, a *action) {
	used := change{queued: -1}
	switch {
	case a.cmd == node.CmdCrash:
		if p.crashed {
			rt.account(used)
			return
		}
		p.crashed = true
		if rt.cfg.Workload != nil {
			rt.cfg.Workload.Crash(p.self)
		}
		p.tick()
		rt.emit(p, trace.KindCrash, a.note)
		if !p.done {
			used.notDone = -1 // no longer live: it no longer holds the run up
		}
		rt.mu.Lock()
		p.stopTimers(rt) // pending timers die with the node
		rt.apply(used)
		rt.mu.Unlock()
		return
	case a.cmd == node.CmdRestart:
		if !p.crashed {
			rt.account(used)
			return
		}
		nd, err := rt.cfg.Factory(p.self)
		if err != nil {
			rt.fail(err)
			return
		}
		p.nd, p.crashed, p.done = nd, false, false
		if rt.cfg.Workload != nil {
			rt.cfg.Workload.Restart(p.self)
		}
		used.notDone = +1 // live again, and not done
		p.tick()
		rt.emit(p, trace.KindRecover, a.note)
		a = &action{cmd: node.CmdRecover}
	case p.crashed:
		rt.account(used)
		return
	}
	p.tick()
	rt.emitCmd(p, a.cmd, a.arg, a.note)
	p.step(rt, w, node.Input{Kind: node.InCmd, Cmd: a.cmd, Arg: a.arg}, used)
}

// fire handles the tick of timer tm, unless the timer was cancelled (or
// died with a crash) after it fell due.
func (p *peer) fire(rt *runtime, w *worker, tm *timer) {
	if p.crashed || p.timers[tm.id] != tm {
		rt.account(change{queued: -1})
		return
	}
	delete(p.timers, tm.id)
	p.tick()
	p.step(rt, w, node.Input{Kind: node.InTick, Timer: tm.id}, change{queued: -1})
}

// step runs one input through the node and carries out what it produced;
// used is what the input itself takes off the counters.
//
// The counters change once, under rt.mu, before any of the step's messages
// or actions is put in an inbox: what the step adds is counted before a
// receiver can take it away, and the input it consumed at the same moment,
// so the run can never look idle while its work is under way.
func (p *peer) step(rt *runtime, w *worker, in node.Input, used change) {
	w.steps++
	out := &w.out
	defer func() {
		clear(out.Sends) // keep no message alive
		clear(out.Events)
		out.Reset()
	}()
	out.Now = p.now(rt)
	p.nd.Step(in, out)
	for _, s := range out.Sends {
		if err := rt.checkSend(p.self, s.To, s.Msg.Type()); err != nil {
			rt.fail(err)
			return
		}
	}
	var acts []node.Action
	for _, ev := range out.Events {
		p.tick()
		rt.emitNode(p, ev)
		if rt.cfg.Workload != nil {
			acts = append(acts, rt.cfg.Workload.React(p.self, ev, out.Now)...)
		}
	}
	for _, a := range acts {
		if a.Node < 1 || a.Node > rt.cfg.Nodes {
			rt.fail(errReact(p.self, a))
			return
		}
	}

	c := used
	c.flight += int64(len(out.Sends))
	if out.Done != p.done { // as the step says: a node with work again holds the run up
		p.done = out.Done
		if out.Done {
			c.notDone--
		} else {
			c.notDone++
		}
	}
	var now []node.Action // reactions due at once
	for _, a := range acts {
		if a.At <= 0 {
			now = append(now, a)
		}
	}
	c.queued += int64(len(now))
	if len(out.Timers)+len(acts)-len(now) > 0 {
		rt.mu.Lock()
		for _, t := range out.Timers {
			p.setTimer(rt, t)
		}
		for _, a := range acts {
			if a.At > 0 {
				rt.scheduleAction(p.at+time.Duration(a.At)*rt.cfg.Tick, a)
			}
		}
		rt.apply(c)
		rt.mu.Unlock()
	} else {
		rt.account(c)
	}

	for _, a := range now {
		rt.peers[a.Node].put(rt, envelope{msg: &action{cmd: a.Cmd, arg: a.Arg}}, w)
	}
	for _, s := range out.Sends {
		p.send(rt, w, s)
	}
	if rt.cfg.Stop != nil && rt.cfg.Stop() {
		rt.stop()
	}
}

// send stamps, counts, traces and delivers one message.
func (p *peer) send(rt *runtime, w *worker, s node.Send) {
	p.lc++
	var vc []uint32
	if p.vc != nil {
		p.vc[p.self-1]++
		vc = slices.Clone(p.vc) // the message's own copy
	}
	w.count(s.Msg.Type())
	rt.emitMsg(p, trace.KindSend, p.lc, p.self, s.To, s.Msg, "")
	rt.peers[s.To].put(rt, envelope{from: p.self, lc: p.lc, msg: s.Msg, vc: vc}, w)
}

// tick advances the node's clocks for an event at the node.
func (p *peer) tick() {
	p.lc++
	if p.vc != nil {
		p.vc[p.self-1]++
	}
}

// now is the Output.Now of the step in hand, in ticks.
func (p *peer) now(rt *runtime) int64 { return int64(p.at / rt.cfg.Tick) }

// count counts one message of type typ sent.
func (w *worker) count(typ string) {
	for k := range w.sent {
		if w.sent[k].typ == typ {
			w.sent[k].n++
			return
		}
	}
	w.sent = append(w.sent, typeCount{typ, 1})
}

// account applies c to the run's counters.
func (rt *runtime) account(c change) {
	if c == (change{}) {
		return // a message forwarded: nothing changes
	}
	rt.mu.Lock()
	rt.apply(c)
	rt.mu.Unlock()
}

// apply applies c to the counters and settles the run; the caller holds
// mu.
func (rt *runtime) apply(c change) {
	rt.flight += c.flight
	rt.queued += c.queued
	rt.notDone += c.notDone
	rt.settle()
}
