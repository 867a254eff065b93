// Package mutexlab is the part of the Ricart-Agrawala assignment a student
// is given whole: the Algorithm value that runs a mutual-exclusion node
// through ringlab's tools, the workload (every node asks for the critical
// section, leaves it as soon as it is in, and asks again while it has
// requests left) and the properties every run is judged by: mutual
// exclusion, every request granted, and termination.
package mutexlab

import (
	"fmt"
	"slices"

	"ringlab/engine"
	"ringlab/engine/check"
	"ringlab/engine/node"
	"ringlab/engine/trace"
)

// NewNode builds node i (1..n) of an algorithm on n nodes, in its initial
// state.
type NewNode func(n, i int) node.Node

// Algorithm describes a mutual-exclusion algorithm on a complete graph of
// nodes: name is its command's name, newNode builds its nodes and
// messages lists one value of each message type they send. Its
// parameters are nodes (2..6, default 3) and requests (each node's, 1..3,
// default 1); the exhaustive checker takes it as it is.
func Algorithm(name string, newNode NewNode, messages []node.Msg) engine.Algorithm {
	return engine.Algorithm{
		Name:  name,
		Usage: "a mutual-exclusion algorithm on a complete graph",
		Params: []engine.Param{
			{Name: "nodes", Usage: "nodes, all asking for the critical section", Default: 3, Check: between(2, 6)},
			{Name: "requests", Usage: "entries each node asks for", Default: 1, Check: between(1, 3)},
		},
		Build: func(p engine.Params, _ engine.Env) (engine.System, error) {
			n, requests := p.Int("nodes"), p.Int("requests")
			if err := between(2, 6)(n); err != nil {
				return engine.System{}, fmt.Errorf("nodes %w", err)
			}
			if err := between(1, 3)(requests); err != nil {
				return engine.System{}, fmt.Errorf("requests %w", err)
			}
			script := make([]node.Action, 0, n)
			for i := 1; i <= n; i++ {
				script = append(script, node.Action{At: 0, Node: i, Cmd: node.CmdRequest})
			}
			return engine.System{
				Name:  name,
				Nodes: n,
				Factory: func(i int) (node.Node, error) {
					if i < 1 || i > n {
						return nil, fmt.Errorf("%s: node index must be 1..%d, got %d", name, n, i)
					}
					return newNode(n, i), nil
				},
				Messages:   messages,
				Script:     script,
				Workload:   newWorkload(n, requests),
				Properties: []check.Property{&check.MutualExclusion{}, &Granted{}, check.Termination{}},
				Topology:   trace.TopoComplete,
			}, nil
		},
	}
}

// between checks that an int parameter lies in [lo, hi].
func between(lo, hi int) func(v any) error {
	return func(v any) error {
		if n := v.(int); n < lo || n > hi {
			return fmt.Errorf("must be between %d and %d, got %d", lo, hi, n)
		}
		return nil
	}
}

// workload releases the critical section right after every entry and asks
// again after every exit while the node has requests left. Its state is
// the requests each node has left; the exhaustive checker carries it in
// every state.
type workload struct{ left []int }

func newWorkload(n, requests int) *workload {
	w := &workload{left: make([]int, n+1)}
	for i := 1; i <= n; i++ {
		w.left[i] = requests - 1
	}
	return w
}

// React answers an entry with a release and an exit with the next request.
func (w *workload) React(i int, ev node.Event, _ int64) []node.Action {
	switch ev.Kind {
	case node.EvEnterCS:
		return []node.Action{{At: 1, Node: i, Cmd: node.CmdRelease}}
	case node.EvExitCS:
		if w.left[i] > 0 {
			w.left[i]--
			return []node.Action{{At: 1, Node: i, Cmd: node.CmdRequest}}
		}
	}
	return nil
}

// Wants says React answers entries and exits only.
func (w *workload) Wants() trace.Kinds { return trace.KindsOf(trace.KindEnterCS, trace.KindExitCS) }

// Crash and Restart change nothing: there are no faults in this assignment.
func (w *workload) Crash(int)   {}
func (w *workload) Restart(int) {}

// Clone copies the requests left.
func (w *workload) Clone() engine.Workload { return &workload{left: slices.Clone(w.left)} }

// AppendKey encodes the requests left.
func (w *workload) AppendKey(b []byte) []byte { return node.AppendInts(b, w.left) }

// IDGranted names the Granted property.
const IDGranted check.ID = "every request granted"

// Granted is the liveness property that every request is granted: at the
// end of a run, every node has entered the critical section as many times
// as it asked. A node that asks while it waits is asking once.
type Granted struct {
	check.Names
	asked, entered map[int]int
}

// ID names the property.
func (*Granted) ID() check.ID { return IDGranted }

// Liveness says a failure is "no progress": the run stopped short of its
// work rather than doing something wrong.
func (*Granted) Liveness() bool { return true }

// Wants is the requests and the entries.
func (*Granted) Wants() trace.Kinds { return trace.KindsOf(trace.KindCmd, trace.KindEnterCS) }

// Observe counts requests and entries.
func (g *Granted) Observe(e *trace.Event) string {
	if g.asked == nil {
		g.asked, g.entered = map[int]int{}, map[int]int{}
	}
	switch {
	case e.Kind == trace.KindCmd && e.Cmd == string(node.CmdRequest):
		g.asked[e.Node]++
	case e.Kind == trace.KindEnterCS:
		g.entered[e.Node]++
	}
	return ""
}

// Finish names the nodes still waiting at the end.
func (g *Granted) Finish(check.End) trace.Verdict {
	var waiting []int
	total, never := 0, 0
	for i, a := range g.asked {
		total += a
		if a > g.entered[i] {
			waiting = append(waiting, i)
			never += a - g.entered[i]
		}
	}
	v := trace.Verdict{Property: string(IDGranted), OK: len(waiting) == 0}
	if v.OK {
		v.Detail = fmt.Sprintf("all %d requests granted", total)
		return v
	}
	slices.Sort(waiting)
	v.Detail = fmt.Sprintf("%d of %d requests never granted: %s still waiting", never, total, g.List(waiting))
	return v
}
