package live

import (
	"slices"

	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// The sink runs on a goroutine of its own, the collector, which Run starts
// when config.Sink is set and joins after every node's goroutine. A node
// does not call Sink: it puts a record of each event into one shared
// channel, and the collector turns the records into events and calls Sink
// in channel order, numbering them as it goes. So Sink calls are
// serialized and in seq order, and a slow Sink (a renderer) slows the
// nodes down, through the channel's bound, instead of letting the records
// pile up.
//
// Order: a node puts the records of a step before it delivers the step's
// messages (peer.send traces a message before it puts it in the inbox), so
// a receiver's records follow the sender's, and a node's own records keep
// their order.

// sinkQueue is the capacity of the collector's channel, in records.
const sinkQueue = 4096

// record is one event on its way to the collector: what the node knew
// when it happened, and when.
type record struct {
	t        int64 // nanoseconds since the start, skipped time included
	kind     string
	node     int
	from, to int // message events
	lc       int64
	vc       []uint32 // a copy (config.VectorClocks)
	msg      node.Msg
	text     string // the state of a state event, the command of a cmd event
	note     string
	leader   int // a leader event's leader
	round    int // and its rounds
	arg      int // a cmd event's parameter
}

// collector is the sink's goroutine: it delivers every record put before
// Run closed the queue (after every node goroutine returned).
func (rt *runtime) collector() {
	var ev trace.Event
	var seq, t int64
	for r := range rt.evq {
		seq++
		t = max(t, r.t) // records of several nodes may come slightly out of time order
		ev = trace.Event{V: trace.Version, Seq: seq, T: t, Node: r.node, Kind: r.kind, LC: r.lc, VC: r.vc, Note: r.note}
		switch r.kind {
		case trace.KindState:
			ev.State = r.text
		case trace.KindCmd:
			ev.Cmd, ev.Arg = r.text, r.arg
		case trace.KindLeader:
			ev.Leader, ev.Round = &r.leader, r.round
		case trace.KindSend, trace.KindRecv, trace.KindDrop:
			ev.From, ev.To, ev.Msg = r.from, r.to, trace.WrapMsg(r.msg)
		}
		rt.cfg.Sink(&ev)
		// Checkers observe in Sink and end the run through config.Stop.
		if rt.cfg.Stop != nil && !rt.over.Load() && rt.cfg.Stop() {
			rt.stop()
		}
	}
}

// The emit functions record an event at node p, at its clocks (but a
// send's, which takes the Lamport clock the message carries), timed when
// the node took its input (peer.at).

// newRecord starts the record of an event of kind at node p.
func (rt *runtime) newRecord(p *peer, kind string, lc int64) record {
	r := record{t: int64(p.at), kind: kind, node: p.self, lc: lc}
	if p.vc != nil {
		r.vc = slices.Clone(p.vc)
	}
	return r
}

// emit records a crash or recover event.
func (rt *runtime) emit(p *peer, kind, note string) {
	if rt.cfg.Sink == nil || rt.cfg.Skip.Has(kind) {
		return
	}
	r := rt.newRecord(p, kind, p.lc)
	r.note = note
	rt.evq <- r
}

// emitCmd records the event of a scripted or reactive command.
func (rt *runtime) emitCmd(p *peer, c node.Cmd, arg int, note string) {
	if rt.cfg.Sink == nil || rt.cfg.Skip.Has(trace.KindCmd) {
		return
	}
	r := rt.newRecord(p, trace.KindCmd, p.lc)
	r.text, r.arg, r.note = string(c), arg, note
	rt.evq <- r
}

func (rt *runtime) emitMsg(p *peer, kind string, lc int64, from, to int, m node.Msg, note string) {
	if rt.cfg.Sink == nil || !rt.cfg.Messages || rt.cfg.Skip.Has(kind) {
		return
	}
	r := rt.newRecord(p, kind, lc)
	r.from, r.to, r.msg, r.note = from, to, m, note
	rt.evq <- r
}

func (rt *runtime) emitNode(p *peer, e node.Event) {
	if rt.cfg.Sink == nil || rt.cfg.Skip.HasNode(e.Kind) {
		return
	}
	r := rt.newRecord(p, "", p.lc)
	r.note = e.Note
	r.kind = trace.NodeKind(e.Kind)
	switch e.Kind {
	case node.EvState:
		r.text = e.State
	case node.EvLeader:
		r.leader, r.round = e.Leader, e.Round
	}
	rt.evq <- r
}
