package trace

import (
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

func (r *chromeRenderer) draw() error {
	h := r.header()
	ms, byEvent := messages(r.ev)
	// µs per unit of t, and the width of a handler's slice.
	scale, slice := 1000.0, 100.0 // a tick is 1 ms; a handler 0.1 ms
	if h.Live() {
		scale, slice = 0.001, 1.0
	}
	f := chromeFile{DisplayTimeUnit: "ms", OtherData: map[string]any{
		"algorithm": OneLine(h.Algorithm), "runtime": OneLine(h.Runtime), "seed": h.Seed, "replay": OneLine(h.Replay)}}
	add := func(e traceEvent) { f.TraceEvents = append(f.TraceEvents, e) }
	dur := func(d float64) *float64 { return &d }
	add(traceEvent{Name: "process_name", Ph: "M", Pid: 1, Args: map[string]any{"name": OneLine("ringlab " + h.Algorithm)}})
	for i := 1; i <= h.Nodes; i++ {
		add(traceEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"name": OneLine(h.Label(i))}})
		add(traceEvent{Name: "thread_sort_index", Ph: "M", Pid: 1, Tid: i, Args: map[string]any{"sort_index": i}})
	}
	// Within one tick a node's events follow each other by a slice width.
	type spot struct {
		t    int64
		node int
	}
	next := map[spot]int{}
	ts := make([]float64, len(r.ev))
	for i := range r.ev {
		e := &r.ev[i]
		k := spot{e.T, e.Node}
		ts[i] = float64(e.T)*scale + float64(next[k])*slice
		if !h.Live() {
			next[k]++
		}
	}
	for _, cs := range csIntervals(r.ev) {
		end := ts[len(ts)-1] + slice
		if cs.exit >= 0 {
			end = ts[cs.exit]
		}
		add(traceEvent{Name: "critical section", Cat: "cs", Ph: "X", Ts: ts[cs.enter], Dur: dur(max(end-ts[cs.enter], slice)),
			Pid: 1, Tid: cs.node})
	}
	for i := range r.ev {
		e := &r.ev[i]
		args := map[string]any{"t": e.T, "lc": e.LC}
		if e.VC != nil {
			args["vc"] = e.VC
		}
		switch e.Kind {
		case KindSend, KindRecv:
			m := byEvent[i]
			name := OneLine(Short(e.Msg))
			if e.Kind == KindSend {
				args["to"] = OneLine(h.Label(e.To))
				add(traceEvent{Name: "send " + name, Cat: "msg", Ph: "X", Ts: ts[i], Dur: dur(slice / 2), Pid: 1, Tid: e.Node, Args: args})
				if m >= 0 && ms[m].recv >= 0 {
					id := m + 1
					add(traceEvent{Name: OneLine(e.Msg.Type()), Cat: "msg", Ph: "s", Ts: ts[i], Pid: 1, Tid: e.Node, ID: &id})
				}
			} else {
				args["from"] = OneLine(h.Label(e.From))
				add(traceEvent{Name: "handle " + name, Cat: "msg", Ph: "X", Ts: ts[i], Dur: dur(slice / 2), Pid: 1, Tid: e.Node, Args: args})
				if m >= 0 && ms[m].send >= 0 {
					id := m + 1
					add(traceEvent{Name: OneLine(e.Msg.Type()), Cat: "msg", Ph: "f", BP: "e", Ts: ts[i], Pid: 1, Tid: e.Node, ID: &id})
				}
			}
		case KindCrash, KindRecover, KindDrop, KindDup, KindLeader, KindViolation:
			name := OneLine(DescribeWith(e, h.Name))
			add(traceEvent{Name: name, Cat: e.Kind, Ph: "i", S: "t", Ts: ts[i], Pid: 1, Tid: e.Node, Args: args})
		case KindState, KindCmd, KindNote:
			add(traceEvent{Name: OneLine(DescribeWith(e, h.Name)), Cat: e.Kind, Ph: "i", S: "t", Ts: ts[i], Pid: 1, Tid: e.Node, Args: args})
		}
	}
	if s := r.sum; s != nil {
		var vs []string
		for _, v := range s.Verdicts {
			vs = append(vs, VerdictLine(v))
		}
		f.OtherData["verdicts"] = vs
	}
	if r.skipped > 0 {
		f.OtherData["cut"] = fmt.Sprintf("only the first %d of %d events; narrow the run", len(r.ev), len(r.ev)+r.skipped)
	}
	// One trace event per line: a diff of two traces stays readable.
	other, err := json.Marshal(f.OtherData)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.w, "{\"displayTimeUnit\":%q,\"otherData\":%s,\"traceEvents\":[\n", f.DisplayTimeUnit, other)
	for k, e := range f.TraceEvents {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		sep := ",\n"
		if k == len(f.TraceEvents)-1 {
			sep = "\n"
		}
		r.w.Write(b)
		r.w.WriteString(sep)
	}
	_, err = r.w.WriteString("]}\n")
	return err
}
