package mutex

import (
	"ringlab/engine"
	"ringlab/engine/node"
)

// goals are the states `mutex check ALGO --goal NAME` can look for, on
// top of the check's own messages-on-a-link: all-waiting where the nodes
// name their protocol state.
func goals(pl plan) []engine.Goal {
	var gs []engine.Goal
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
	if w, ok := nd.(notDone); ok {
		nd = w.Node
	}
	s, ok := nd.(stated)
	if !ok {
		return "", false
	}
	return s.ProtocolState(), true
}
