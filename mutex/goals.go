package mutex

import (
	"ringlab/engine"
	"ringlab/engine/node"
	"ringlab/engine/trace"
	"ringlab/mutex/kit"
)

// goals are the states `mutex check ALGO --goal NAME` can look for, on
// top of the check's own messages-on-a-link: overtaken-twice, a goal over
// history, for every algorithm; all-waiting where the nodes name their
// protocol state.
func goals(pl plan) []engine.Goal {
	gs := []engine.Goal{overtakenTwice}
	if nd, err := pl.factory(1); err != nil {
		return gs
	} else if _, ok := stateOf(nd); !ok {
		return gs
	}
	return append(gs, engine.Goal{Name: "all-waiting", Usage: "every node wants the critical section at once and none holds it",
		Holds: func(s engine.GlobalState) bool {
			for _, nd := range s.Nodes {
				if st, ok := stateOf(nd); !ok || st != "WANTED" {
					return false
				}
			}
			return true
		}})
}

// stated is a node that names its protocol state (Lamport's and
// Ricart-Agrawala's, through their Status).
type stated interface{ ProtocolState() string }

// stateOf is node nd's protocol state, if it names one.
func stateOf(nd node.Node) (string, bool) {
	nd = unwrap(nd)
	s, ok := nd.(stated)
	if !ok {
		return "", false
	}
	return s.ProtocolState(), true
}

// overtakenTwice is reached when some node has asked for the critical
// section and, while it still waits, other nodes have entered it twice:
// a goal over history, which its monitor (overtakes) remembers.
var overtakenTwice = engine.Goal{Name: "overtaken-twice",
	Usage: "some waiting node sees two entries by others while it waits (from its request to its entry)",
	Holds: func(s engine.GlobalState) bool {
		o, ok := s.Monitor.(*overtakes)
		return ok && o.most() >= 2
	},
	Monitor: func() engine.Monitor { return &overtakes{} },
}

// overtakes follows, for every node, whether it waits (a request given
// and not yet granted: the no-starvation promise owed) and how many
// entries by others it has seen while it waits, counted up to 2 (more
// would only split states the goal does not tell apart).
type overtakes struct {
	waiting []bool // by node index - 1
	seen    []uint8
}

// Observe follows requests, entries and crashes.
func (o *overtakes) Observe(e *trace.Event) {
	for len(o.waiting) < e.Node {
		o.waiting, o.seen = append(o.waiting, false), append(o.seen, 0)
	}
	i := e.Node - 1
	switch e.Kind {
	case trace.KindCmd:
		if kit.IsRequest(e.Cmd) && !o.waiting[i] {
			o.waiting[i], o.seen[i] = true, 0
		}
	case trace.KindEnterCS:
		o.waiting[i], o.seen[i] = false, 0
		for j := range o.waiting {
			if o.waiting[j] && o.seen[j] < 2 {
				o.seen[j]++
			}
		}
	case trace.KindCrash:
		o.waiting[i], o.seen[i] = false, 0
	}
}

// Wants is the commands, the entries and the crashes.
func (o *overtakes) Wants() trace.Kinds {
	return trace.KindsOf(trace.KindCmd, trace.KindEnterCS, trace.KindCrash)
}

// Clone copies the counts.
func (o *overtakes) Clone() engine.Monitor {
	return &overtakes{waiting: append([]bool(nil), o.waiting...), seen: append([]uint8(nil), o.seen...)}
}

// AppendKey encodes every node's count, and whether it waits.
func (o *overtakes) AppendKey(b []byte) []byte {
	for j := range o.waiting {
		k := o.seen[j]
		if o.waiting[j] {
			k |= 4
		}
		b = append(b, k)
	}
	return b
}

// most is the most entries by others some waiting node has seen.
func (o *overtakes) most() int {
	m := 0
	for j, w := range o.waiting {
		if w {
			m = max(m, int(o.seen[j]))
		}
	}
	return m
}
