package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
)

// chromeRenderer writes Trace Event Format JSON, which ui.perfetto.dev and
// chrome://tracing open: a track (thread) per node named by its label, a
// slice per handled message and per critical section, a flow arrow from
// each send to its receive (matching ids), and instant events for crashes,
// recoveries, drops, decisions and violations. Simulator ticks are drawn
// as milliseconds; a live run's nanoseconds as they are.
type chromeRenderer struct{ collector }

func (r *chromeRenderer) Flush() error { return r.flush(r.draw) }

type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  *float64       `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	ID   *int           `json:"id,omitempty"`
	BP   string         `json:"bp,omitempty"`
	S    string         `json:"s,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// chromeFile is the whole file.
type chromeFile struct {
	TraceEvents     []traceEvent   `json:"traceEvents"`
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	OtherData       map[string]any `json:"otherData,omitempty"`
}

// draw writes the file: the tracks, the critical sections, one or two
// trace events per event of the run, and the verdicts.
func (r *chromeRenderer) draw() error {
	c := newChromeTrace(r.header(), r.ev)
	c.tracks()
	c.criticalSections()
	for i := range r.ev {
		c.event(i)
	}
	if s := r.sum; s != nil {
		var vs []string
		for _, v := range s.Verdicts {
			vs = append(vs, VerdictLine(v))
		}
		c.f.OtherData["verdicts"] = vs
	}
	if r.skipped > 0 {
		c.f.OtherData["cut"] = fmt.Sprintf("only the first %d of %d events; narrow the run", len(r.ev), len(r.ev)+r.skipped)
	}
	return c.f.write(r.w)
}

// chromeTrace builds the trace events of one run.
type chromeTrace struct {
	h       *Header
	ev      []Event
	ms      []message
	byEvent []int     // the message of each send or receive event, or -1
	slice   float64   // µs: the width of a handler's slice
	ts      []float64 // µs: when each event is drawn
	f       chromeFile
}

// newChromeTrace places the events in time: a tick is 1 ms and a handler
// 0.1 ms, a live run's nanoseconds are themselves; within one tick a node's
// events follow each other by a slice width.
func newChromeTrace(h *Header, ev []Event) *chromeTrace {
	ms, byEvent := messages(ev)
	c := &chromeTrace{h: h, ev: ev, ms: ms, byEvent: byEvent, slice: 100, f: chromeFile{DisplayTimeUnit: "ms", OtherData: map[string]any{
		"algorithm": OneLine(h.Algorithm), "runtime": OneLine(h.Runtime), "seed": h.Seed, "replay": OneLine(h.Replay)}}}
	scale := 1000.0 // µs per unit of t
	if h.Live() {
		scale, c.slice = 0.001, 1.0
	}
	type spot struct {
		t    int64
		node int
	}
	next := map[spot]int{}
	c.ts = make([]float64, len(ev))
	for i := range ev {
		k := spot{ev[i].T, ev[i].Node}
		c.ts[i] = float64(ev[i].T)*scale + float64(next[k])*c.slice
		if !h.Live() {
			next[k]++
		}
	}
	return c
}

func (c *chromeTrace) add(e traceEvent) { c.f.TraceEvents = append(c.f.TraceEvents, e) }

func chromeDur(d float64) *float64 { return &d }

// tracks names the process and one track per node, in node order.
func (c *chromeTrace) tracks() {
	c.add(traceEvent{Name: "process_name", Ph: "M", Pid: 1, Args: map[string]any{"name": OneLine("ringlab " + c.h.Algorithm)}})
	for i := 1; i <= c.h.Nodes; i++ {
		c.add(traceEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"name": OneLine(c.h.Label(i))}})
		c.add(traceEvent{Name: "thread_sort_index", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"sort_index": i}})
	}
}

// criticalSections adds a slice per stay in the critical section; one
// never left lasts until the last event.
func (c *chromeTrace) criticalSections() {
	for _, cs := range csIntervals(c.ev) {
		end := c.ts[len(c.ts)-1] + c.slice
		if cs.exit >= 0 {
			end = c.ts[cs.exit]
		}
		c.add(traceEvent{Name: "critical section", Cat: "cs", Ph: "X", Ts: c.ts[cs.enter], Dur: chromeDur(max(end-c.ts[cs.enter], c.slice)),
			Pid: 1, Tid: cs.node})
	}
}

// event adds the trace events of event i: a slice per send and receive,
// with a flow arrow between the two when both are in the log, and an
// instant for the others.
func (c *chromeTrace) event(i int) {
	e := &c.ev[i]
	args := map[string]any{"t": e.T, "lc": e.LC}
	if e.VC != nil {
		args["vc"] = e.VC
	}
	ts, m := c.ts[i], c.byEvent[i]
	switch e.Kind {
	case KindSend:
		args["to"] = OneLine(c.h.Label(e.To))
		c.add(traceEvent{Name: "send " + OneLine(Short(e.Msg)), Cat: "msg", Ph: "X", Ts: ts, Dur: chromeDur(c.slice / 2), Pid: 1, Tid: e.Node, Args: args})
		if m >= 0 && c.ms[m].recv >= 0 {
			id := m + 1
			c.add(traceEvent{Name: OneLine(e.Msg.Type()), Cat: "msg", Ph: "s", Ts: ts, Pid: 1, Tid: e.Node, ID: &id})
		}
	case KindRecv:
		args["from"] = OneLine(c.h.Label(e.From))
		c.add(traceEvent{Name: "handle " + OneLine(Short(e.Msg)), Cat: "msg", Ph: "X", Ts: ts, Dur: chromeDur(c.slice / 2), Pid: 1, Tid: e.Node, Args: args})
		if m >= 0 && c.ms[m].send >= 0 {
			id := m + 1
			c.add(traceEvent{Name: OneLine(e.Msg.Type()), Cat: "msg", Ph: "f", BP: "e", Ts: ts, Pid: 1, Tid: e.Node, ID: &id})
		}
	case KindCrash, KindRecover, KindDrop, KindDup, KindLeader, KindViolation, KindState, KindCmd, KindNote:
		c.add(traceEvent{Name: OneLine(DescribeWith(e, c.h.Name)), Cat: e.Kind, Ph: "i", S: "t", Ts: ts, Pid: 1, Tid: e.Node, Args: args})
	}
}

// write writes the file with one trace event per line, so that a diff of
// two traces stays readable.
func (f *chromeFile) write(w *bufio.Writer) error {
	other, err := json.Marshal(f.OtherData)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "{\"displayTimeUnit\":%q,\"otherData\":%s,\"traceEvents\":[\n", f.DisplayTimeUnit, other)
	for k, e := range f.TraceEvents {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		sep := ",\n"
		if k == len(f.TraceEvents)-1 {
			sep = "\n"
		}
		w.Write(b)
		w.WriteString(sep)
	}
	_, err = w.WriteString("]}\n")
	return err
}
