package live

import (
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
// when it happened. The collector fills in the rest: seq, and t, the time
// the event reaches the sink (a few microseconds after the step, unless
// the queue is full).
type record struct {
	kind     string
	node     int32
	from, to int32 // message events
	lc       int64
	msg      node.Msg
	text     string // the state of a state event, the command of a cmd event
	note     string
	leader   int // a leader event's leader
}

// put hands r to the collector; it waits while the queue is full. The
// collector stamps the time: a node's stack has no room for time.Since.
func (rt *runtime) put(r *record) { rt.evq <- *r }

// collector is the sink's goroutine: it delivers every record put before
// Run closed the queue (after every node goroutine returned).
func (rt *runtime) collector() {
	var (
		ev      trace.Event
		seq, t  int64 // t: nanoseconds since the start, never decreasing
		leaders []int // leader events point into it: fresh slots, one per event
	)
	for {
		r, ok := <-rt.evq
		if !ok {
			return
		}
		seq++
		t = max(t, rt.since().Nanoseconds())
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

func (rt *runtime) emit(kind string, i int32, lc int64) {
	if rt.cfg.Sink != nil && !rt.cfg.Skip.Has(kind) {
		rt.put(&record{kind: kind, node: i, lc: lc})
	}
}

// emitCmd is the event of a scripted or reactive command.
func (rt *runtime) emitCmd(i int32, lc int64, c node.Cmd) {
	if rt.cfg.Sink != nil && !rt.cfg.Skip.Has(trace.KindCmd) {
		rt.put(&record{kind: trace.KindCmd, node: i, lc: lc, text: string(c)})
	}
}

func (rt *runtime) emitMsg(kind string, at int32, lc int64, from, to int32, m node.Msg, note string) {
	if rt.cfg.Sink == nil || !rt.cfg.Messages || rt.cfg.Skip.Has(kind) {
		return
	}
	rt.put(&record{kind: kind, node: at, lc: lc, from: from, to: to, msg: m, note: note})
}

func (rt *runtime) emitNode(i int32, lc int64, e node.Event) {
	if rt.cfg.Sink == nil || rt.cfg.Skip.HasNode(e.Kind) {
		return
	}
	r := record{node: i, lc: lc, note: e.Note}
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
