package ring

import (
	"encoding/json"
	"fmt"

	"ringlab/engine/trace"
)

// LogDialect is the ring's --format json as the engine reads logs: render,
// check and serve given it read a ring log as a ring of goroutines passing
// one message.
func LogDialect() trace.Dialect {
	return trace.Dialect{Name: "capitalizing-ring", Source: "the ring's --format json",
		Kinds: []string{"hop", "done", "interrupted"}, New: func() trace.DialectLog { return &ringLog{} }}
}

// ringLog turns the capitalizing ring's hop lines into engine events: a
// hop at goroutine i is a recv of the message (from the goroutine before
// it) and, unless it is the last hop, a send to the goroutine after it.
type ringLog struct {
	hops  []ringHop
	done  bool
	final string
	stop  string // why it stopped, when it was interrupted
}

type ringHop struct {
	Hop      int    `json:"hop"`
	Node     int    `json:"node"`
	Received string `json:"received"`
	Sent     string `json:"sent"`
	Changed  int    `json:"changed"`
}

// Add takes one line of the log.
func (r *ringLog) Add(kind string, b []byte) error {
	if r.done {
		return fmt.Errorf("a %q line after the last line", kind)
	}
	switch kind {
	case "hop":
		var h ringHop
		if err := json.Unmarshal(b, &h); err != nil {
			return err
		}
		if h.Node < 1 || h.Node > 1<<20 {
			return fmt.Errorf("hop %d at goroutine %d: goroutines are numbered from 1", h.Hop, h.Node)
		}
		r.hops = append(r.hops, h)
	case "done", "interrupted":
		var d struct {
			Hops    int    `json:"hops"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			return err
		}
		r.done, r.final = true, d.Message
		if kind == "interrupted" {
			r.stop = fmt.Sprintf("interrupted after %d hops", d.Hops)
		}
	}
	return nil
}

func ringMsg(text string) *trace.Msg {
	b, _ := json.Marshal(map[string]string{"type": "message", "text": text})
	m := &trace.Msg{}
	_ = m.UnmarshalJSON(b)
	return m
}

// Replay hands the log over as a header, events and a summary.
func (r *ringLog) Replay(h trace.Handlers) error {
	n := 0
	for _, hp := range r.hops {
		n = max(n, hp.Node)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("goroutine %d", i+1)
	}
	hd := &trace.Header{V: trace.Version, Kind: trace.KindHeader, Algorithm: "ring (capitalizing)", Runtime: "goroutines", Nodes: n,
		Names: names, Topology: trace.TopoRing, Replay: "ringlab ring --delay 0 --seed N (the seed is not in the ring's log)"}
	if h.Header != nil {
		if err := h.Header(hd); err != nil {
			return err
		}
	}
	var seq int64
	emit := func(e trace.Event) error {
		seq++
		e.V, e.Seq = trace.Version, seq
		switch {
		case h.EventAt != nil: // the events come from the hop lines, not one line each
			return h.EventAt(&e, 0)
		case h.Event != nil:
			return h.Event(&e)
		}
		return nil
	}
	sends := int64(0)
	for k, hp := range r.hops {
		t := int64(hp.Hop)
		if k == 0 {
			if err := emit(trace.Event{T: t, Node: hp.Node, Kind: trace.KindCmd, Cmd: "start"}); err != nil {
				return err
			}
		} else {
			prev := r.hops[k-1]
			if err := emit(trace.Event{T: t, Node: hp.Node, Kind: trace.KindRecv, From: prev.Node, To: hp.Node, Msg: ringMsg(hp.Received)}); err != nil {
				return err
			}
		}
		if hp.Changed >= 0 {
			if err := emit(trace.Event{T: t, Node: hp.Node, Kind: trace.KindNote, Note: fmt.Sprintf("upper-cased letter %d", hp.Changed+1)}); err != nil {
				return err
			}
		}
		if k+1 < len(r.hops) {
			sends++
			next := r.hops[k+1].Node
			if err := emit(trace.Event{T: t, Node: hp.Node, Kind: trace.KindSend, From: hp.Node, To: next, Msg: ringMsg(hp.Sent)}); err != nil {
				return err
			}
		}
	}
	if h.Summary == nil {
		return nil
	}
	s := &trace.Summary{V: trace.Version, Kind: "summary", Algorithm: hd.Algorithm, Runtime: hd.Runtime, Nodes: n,
		Time: int64(len(r.hops)), Steps: int64(len(r.hops)), Messages: sends, ByType: map[string]int64{"message": sends},
		Replay: hd.Replay, Extra: map[string]any{"final message": r.final}}
	switch {
	case r.stop != "":
		s.Verdicts = []trace.Verdict{{Property: "termination", OK: false, Detail: r.stop}}
	case !r.done:
		s.Verdicts = []trace.Verdict{{Property: "termination", OK: false, Detail: "the log ends before the ring's done line"}}
	default:
		s.Verdicts = []trace.Verdict{{Property: "termination", OK: true}}
	}
	return h.Summary(s)
}
