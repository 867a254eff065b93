package live

import (
	"time"

	"ringlab/internal/node"
	"ringlab/internal/trace"
)

// The sink runs on a goroutine of its own, the collector, which Run starts
// when Config.Sink is set and joins after every node's goroutine. A node
// does not call Sink: it puts a record of each event into one shared
// channel, and the collector turns the records into events and calls Sink
// in channel order, numbering them as it goes (seq is sink order, as
// before). So Sink calls are serialized and in seq order without a lock
// that a million node goroutines would queue on, and the checkers' and
// renderers' frames never land on a node's small stack — both used to
// grow every node's stack from 2 KiB to 4 KiB (mutex slow path, sink
// frames) on the million-node ring.
//
// Order: a node puts the records of a step before it delivers the step's
// messages (sendAll traces its sends before it puts them), so a receiver's
// records follow the sender's, and a node's own records keep their order.
// The channel is bounded (sinkQueue): a node that finds it full waits for
// the collector, so a slow sink slows the run down as it always did, and
// memory stays bounded.

// sinkQueue is the capacity of the collector's channel, in records.
const sinkQueue = 4096

// record is one event on its way to the collector: what the node knew
// when it happened, and when. The collector numbers it (seq).
type record struct {
	t        int64 // nanoseconds since the start
	kind     string
	node     int32
	from, to int32 // message events
	lc       int64
	msg      node.Msg
	text     string // the state of a state event, the command of a cmd event
	note     string
	leader   int // a leader event's leader
}

// put hands r to the collector; it waits while the queue is full. In a
// batched run (Config.Batch) it wakes the collector only once the queue is
// half full: the collector then drains it, so a million events cost a few
// hundred wake-ups, not a million goroutine switches.
//
// It is on the deepest path of a node's stack (loop, step, prepare, the
// emit function, put, the channel send): a select here, or a copy of the
// record, would grow a million 2 KiB stacks to 4 KiB.
func (rt *runtime) put(r *record) {
	if rt.cfg.Batch {
		rt.batchWake()
	}
	rt.evq <- *r
}

// batchWake wakes the collector if the queue is half full or more. Every
// put checks before it sends, so the queue fills with the collector asleep
// only if half a queue of producers were all between their check and their
// send at once; even then, the collector wakes by itself within
// batchPeriod (see take).
//
//go:noinline
func (rt *runtime) batchWake() {
	if len(rt.evq) >= sinkQueue/2 {
		rt.wakeSink()
	}
}

// wakeSink wakes a batched collector that waits for work.
func (rt *runtime) wakeSink() {
	select {
	case rt.sinkWake <- struct{}{}:
	default:
	}
}

// batchPeriod bounds how long a batched collector sleeps with records
// waiting: a Stop that turns true on what the sink saw (a checker's
// violation) ends the run this late at most, even if the queue stays short
// of half full.
const batchPeriod = 10 * time.Millisecond

// take returns the collector's next record, and false once the queue is
// closed and empty. Batched, it waits when the queue is empty, until it is
// woken or batchPeriod has passed.
func (rt *runtime) take(tick *time.Timer) (record, bool) {
	if !rt.cfg.Batch {
		r, ok := <-rt.evq
		return r, ok
	}
	for {
		select {
		case r, ok := <-rt.evq:
			return r, ok
		default:
		}
		tick.Reset(batchPeriod)
		select {
		case <-rt.sinkWake: // closed at the end, after the queue
		case <-tick.C:
		}
	}
}

// stampEvery is how many untimed records share one clock reading (see
// Config.Untimed).
const stampEvery = 64

// collector is the sink's goroutine: it delivers every record put before
// Run closed the queue (after every node goroutine returned).
func (rt *runtime) collector() {
	var (
		ev          trace.Event
		seq, t      int64 // t: nanoseconds since the start, never decreasing
		stamp       int64 // the time given to untimed records up to seq stampedUpTo
		stampedUpTo int64
		leaders     []int // leader events point into it: fresh slots, one per event
		tick        = time.NewTimer(batchPeriod)
	)
	defer tick.Stop()
	for {
		r, ok := rt.take(tick)
		if !ok {
			return
		}
		seq++
		if r.t < 0 { // untimed: timed now
			if seq > stampedUpTo {
				// The records queued before the clock is read happened
				// before the reading: up to stampEvery of them share it.
				stampedUpTo = seq + int64(min(len(rt.evq), stampEvery-1))
				stamp = int64(rt.since())
			}
			r.t = stamp
		}
		t = max(t, r.t) // records of several nodes may come slightly out of time order
		ev = trace.Event{V: trace.Version, Seq: seq, T: t, Node: int(r.node), Kind: r.kind, LC: r.lc, Note: r.note}
		switch r.kind {
		case trace.KindState:
			ev.State = r.text
		case trace.KindCmd:
			ev.Cmd = r.text
		case trace.KindLeader:
			if len(leaders) == cap(leaders) {
				leaders = make([]int, 0, 256)
			}
			leaders = append(leaders, r.leader)
			ev.Leader = &leaders[len(leaders)-1]
		case trace.KindSend, trace.KindRecv, trace.KindDrop:
			ev.From, ev.To, ev.Msg = int(r.from), int(r.to), trace.WrapMsg(r.msg)
		}
		rt.cfg.Sink(&ev)
		// Checkers observe in Sink and stop the run through Config.Stop:
		// ask again once the sink has caught up with the steps.
		if len(rt.evq) == 0 && rt.cfg.Stop != nil && rt.cfg.Stop() {
			rt.finish(endStopped)
		}
	}
}

// The emit functions record an event at node p, at its Lamport clock (but
// a send's, which takes the one the message will carry), timed by the
// node's reading for its input (peer.when), which they take only for the
// events they keep.

func (rt *runtime) emit(p *peer, kind string) {
	if rt.cfg.Sink != nil && !rt.cfg.Skip.Has(kind) {
		rt.put(&record{t: p.when(rt), kind: kind, node: p.self, lc: p.lc})
	}
}

// emitCmd is the event of a scripted or reactive command.
func (rt *runtime) emitCmd(p *peer, c node.Cmd) {
	if rt.cfg.Sink != nil && !rt.cfg.Skip.Has(trace.KindCmd) {
		rt.put(&record{t: p.when(rt), kind: trace.KindCmd, node: p.self, lc: p.lc, text: string(c)})
	}
}

func (rt *runtime) emitMsg(p *peer, kind string, lc int64, from, to int32, m node.Msg, note string) {
	if rt.cfg.Sink == nil || !rt.cfg.Messages || rt.cfg.Skip.Has(kind) {
		return
	}
	rt.put(&record{t: p.when(rt), kind: kind, node: p.self, lc: lc, from: from, to: to, msg: m, note: note})
}

func (rt *runtime) emitNode(p *peer, e node.Event) {
	if rt.cfg.Sink == nil || rt.cfg.Skip.HasNode(e.Kind) {
		return
	}
	r := record{node: p.self, lc: p.lc, note: e.Note}
	r.t = p.when(rt) // set apart: in the literal, it doubled this frame (see put)
	switch e.Kind {
	case node.EvState:
		r.kind, r.text = trace.KindState, e.State
	case node.EvEnterCS:
		r.kind = trace.KindEnterCS
	case node.EvExitCS:
		r.kind = trace.KindExitCS
	case node.EvLeader:
		r.kind, r.leader = trace.KindLeader, e.Leader
	default:
		r.kind = trace.KindNote
	}
	rt.put(&r)
}
