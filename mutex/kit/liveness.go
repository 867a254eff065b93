package kit

import (
	"fmt"
	"slices"

	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// The IDs of the properties of this package.
const (
	IDNoDeadlock   check.ID = "no deadlock"
	IDNoStarvation check.ID = "no starvation"
	IDGrantOrder   check.ID = "grant order"
	IDOneToken     check.ID = "one token"
)

// IsRequest reports whether a command asks for the critical section.
func IsRequest(cmd string) bool { return cmd == string(node.CmdRequest) }

// waits follows the outstanding requests of every node.
type waits struct {
	asked   map[int][]int64 // node -> times of its outstanding requests, oldest first
	inCS    map[int]bool
	crashed map[int]bool
	granted int
	longest int64 // longest wait from request to entry
	longNd  int
	last    int64 // time of the last event
}

func (w *waits) observe(e *trace.Event) {
	if w.asked == nil {
		w.asked, w.inCS, w.crashed = map[int][]int64{}, map[int]bool{}, map[int]bool{}
	}
	w.last = e.T
	switch e.Kind {
	case trace.KindCmd:
		if IsRequest(e.Cmd) {
			w.asked[e.Node] = append(w.asked[e.Node], e.T)
		}
	case trace.KindEnterCS:
		w.inCS[e.Node] = true
		w.granted++
		if q := w.asked[e.Node]; len(q) > 0 {
			if d := e.T - q[0]; d > w.longest {
				w.longest, w.longNd = d, e.Node
			}
			w.asked[e.Node] = q[1:]
		}
	case trace.KindExitCS:
		delete(w.inCS, e.Node)
	case trace.KindCrash:
		w.crashed[e.Node] = true
		delete(w.inCS, e.Node)
		delete(w.asked, e.Node)
	case trace.KindRecover:
		delete(w.crashed, e.Node)
	}
}

// waiting returns the live nodes with a request outstanding, in order.
func (w *waits) waiting() []int {
	var ns []int
	for i, q := range w.asked {
		if len(q) > 0 && !w.crashed[i] {
			ns = append(ns, i)
		}
	}
	slices.Sort(ns)
	return ns
}

// Deadlock is the course chapter's "no deadlock: if processes try, some process
// eventually gets in". It fails when the run ends with live nodes waiting
// for the critical section and nobody in it: nothing will ever let them in
// (in the simulator the run ends when nothing is left to happen).
type Deadlock struct {
	check.Names
	w waits
}

// ID names the checked property.
func (*Deadlock) ID() check.ID { return IDNoDeadlock }

// Observe follows requests and grants.
func (d *Deadlock) Observe(e *trace.Event) string { d.w.observe(e); return "" }

// Finish judges the end state.
func (d *Deadlock) Finish(end check.End) trace.Verdict {
	v := trace.Verdict{Property: string(d.ID()), OK: true}
	if ws := d.w.waiting(); len(ws) > 0 && len(d.w.inCS) == 0 {
		v.OK = false
		v.Detail = fmt.Sprintf("%s still waiting for the critical section at t=%s and nobody is in it", d.List(ws), end.Time(d.w.last))
		if !end.Terminated {
			v.Detail += " (" + end.Why + ")"
		} else {
			v.Detail += ": nothing is left that could let them in"
		}
	}
	return v
}

// Starvation is the course chapter's "no starvation: every interested process
// eventually gets in": every request of a node that did not crash was
// granted by the end of the run. Its detail gives the longest wait.
type Starvation struct {
	check.Names
	w waits
}

// ID names the checked property.
func (*Starvation) ID() check.ID { return IDNoStarvation }

// Promise is the property as the exhaustive checker judges it on runs
// without end: a request makes a promise to its node, entering the
// critical section keeps it (a crash cancels it).
func (*Starvation) Promise() check.Promise {
	return &check.Owed{
		Ask:    func(e *trace.Event) bool { return e.Kind == trace.KindCmd && IsRequest(e.Cmd) },
		Answer: func(e *trace.Event) bool { return e.Kind == trace.KindEnterCS },
		Kinds:  trace.KindsOf(trace.KindCmd, trace.KindEnterCS),
	}
}

var _ check.Eventually = (*Starvation)(nil)

// Observe follows requests and grants.
func (s *Starvation) Observe(e *trace.Event) string { s.w.observe(e); return "" }

// Finish judges the end state.
func (s *Starvation) Finish(end check.End) trace.Verdict {
	v := trace.Verdict{Property: string(s.ID()), OK: true}
	if ws := s.w.waiting(); len(ws) > 0 {
		n := 0
		for _, i := range ws {
			n += len(s.w.asked[i])
		}
		v.OK = false
		v.Detail = fmt.Sprintf("%d request(s) of %s never granted", n, s.List(ws))
		return v
	}
	v.Detail = fmt.Sprintf("every request granted (%d entries)", s.w.granted)
	if s.w.longNd > 0 {
		v.Detail += fmt.Sprintf("; longest wait %s, %s", end.Time(s.w.longest), s.Name(s.w.longNd))
	}
	return v
}
